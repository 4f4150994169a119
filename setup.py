"""Builds the vcsched Python package with CMake (see pyproject.toml).

The extension `vcsched._vcsched` is CMake's target; setuptools only places it beside the
pure-Python package. VCSCHED_CMAKE_BUILD_DIR names an already configured CMake build to
reuse (it is built, never reconfigured); otherwise a fresh one is configured under
setuptools' build folder with only what the module needs.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def cmake_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(vcsched VERSION ([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt: no project(vcsched VERSION ...)")
    return m.group(1)


def run_showing_progress(args):
    """Runs the build, its output on stderr (pip shows it with -v) and a one-line progress
    on the terminal, if there is one: pip hides a backend's output, and a source build on
    a busy machine takes minutes."""
    try:
        tty = open("/dev/tty", "w")
    except OSError:
        tty = None
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    step = re.compile(r"^\[(\d+)/(\d+)\]")
    tail = []
    for line in proc.stdout:
        sys.stderr.write(line)
        tail = (tail + [line])[-40:]
        m = step.match(line)
        if tty is not None and m:
            tty.write(f"\rvcsched: building the C++ module, step {m.group(1)} of {m.group(2)} ")
            tty.flush()
    code = proc.wait()
    if tty is not None:
        tty.write("\n")
        tty.close()
    if code != 0:
        raise RuntimeError("the CMake build failed:\n" + "".join(tail))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("VCSCHED_CMAKE_BUILD_DIR")
        if not build_dir:
            build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            args = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                    f"-DPython_EXECUTABLE={sys.executable}", "-DVCSCHED_BUILD_PYTHON=ON",
                    "-DVCSCHED_BUILD_TESTS=OFF", "-DVCSCHED_BUILD_BENCH=OFF", "-DVCSCHED_BUILD_CLI=OFF",
                    "-DVCSCHED_BUILD_EXAMPLES=OFF", "-DVCSCHED_INSTALL=OFF"]
            try:  # pybind11 from PyPI (an isolated build) knows where its CMake files are
                import pybind11
                args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
            except ImportError:
                pass
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            subprocess.run(args, check=True)
        jobs = str(os.cpu_count() or 2)
        run_showing_progress(["cmake", "--build", build_dir, "--target", "vcsched_python_package", "-j", jobs])
        built_dir = os.path.join(build_dir, "python", "vcsched")
        built = [f for f in os.listdir(built_dir) if f.startswith("_vcsched") and f.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError(f"{built_dir}: expected one _vcsched module, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built_dir, built[0]), target)


setup(
    version=cmake_version(),
    packages=["vcsched"],
    package_dir={"vcsched": "bindings/python/vcsched"},
    package_data={"vcsched": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("vcsched._vcsched", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
    zip_safe=False,
)
