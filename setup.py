"""Builds the Python module with CMake (python/CMakeLists.txt, FIVED_PYTHON=ON) for the
interpreter running this script; see pyproject.toml. Only the module's target is built."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        subprocess.run(["cmake", "-S", SOURCE, "-B", build, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DFIVED_PYTHON=ON",
                        "-DFIVED_BUILD_TESTS=OFF", "-DFIVED_BUILD_BENCH=OFF",
                        "-DFIVED_INSTALL=OFF", f"-DPython_EXECUTABLE={sys.executable}"],
                       check=True)
        subprocess.run(["cmake", "--build", build, "--target", "fived_python"], check=True)
        target = os.path.abspath(self.get_ext_fullpath(ext.name))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        (built,) = glob.glob(os.path.join(build, "python", "fived.*.so"))
        shutil.copyfile(built, target)
        shutil.copyfile(os.path.join(SOURCE, "python", "fived.pyi"),
                        os.path.join(os.path.dirname(target), "fived.pyi"))


setup(ext_modules=[Extension("fived", sources=[])], cmdclass={"build_ext": CMakeBuild})
