#!/usr/bin/env bash
# Installs fived's build and test dependencies from Debian's packages.
# Idempotent: packages already present are left alone. Needs root (or sudo).
set -euo pipefail
# FIVED_DEPS=program (scripts/quickstart.sh): only what the fived program needs to build.
pkgs=(build-essential cmake ninja-build pkg-config
      libtbb-dev libabsl-dev libxxhash-dev
      libcli11-dev nlohmann-json3-dev libmd-dev)
if [ "${FIVED_DEPS:-all}" != program ]; then pkgs+=(libbenchmark-dev libgtest-dev
      librsvg2-bin libxml2-utils # rsvg-convert and xmllint: the SVG tests (tests/render)
      chromium # headless browser: the solution viewer's test (tests/render/html_browser_test.py)
      python3 python3-jsonschema # the command-line tests (tests/cli), the JSON Schema
      pybind11-dev python3-dev python3-pytest) # the Python module (python/) and its tests
fi
# clang and its sanitizer/libFuzzer runtimes (a Recommends of clang-NN, so named here), for
# scripts/fuzz.sh; the unversioned names follow Debian's default LLVM.
if [ "${FIVED_WITH_CLANG:-0}" = 1 ]; then pkgs+=(clang libclang-rt-dev); fi
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#pkgs[@]} packages present"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
