"""Finds the module built by CMake: FIVED_PYTHON_PATH (set by the ctest test python_module),
else build/ci/python; FIVED_CLI is the fived program the answers are compared with."""
import os
import sys

ROOT = os.environ.get("FIVED_SOURCE_DIR",
                      os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.environ.get("FIVED_PYTHON_PATH", os.path.join(ROOT, "build", "ci", "python")))
os.environ.setdefault("FIVED_CLI", os.path.join(ROOT, "build", "ci", "cli", "fived"))
os.environ.setdefault("FIVED_SOURCE_DIR", ROOT)
