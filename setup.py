"""Builds the compiled part of the package (hinesbatch._hinesbatch) through the project's
CMake, so that pip install . and pip install -e . produce the module that ctest tests.

Settings (environment):
  HINESBATCH_KOKKOS_ROOT (or Kokkos_ROOT)  the Kokkos install; default .deps/install/openmp,
                                           which scripts/bootstrap.sh makes, else wherever
                                           CMake finds one (CMAKE_PREFIX_PATH)
  HINESBATCH_BUILD_DIR                     an existing CMake build tree to build in (its
                                           configuration is kept); default a private one
  HINESBATCH_CMAKE_ARGS                    more -D... arguments, split on spaces
  HINESBATCH_JOBS                          parallel build jobs (default: the machine's cores)
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\(HinesBatch\s+VERSION\s+([0-9.]+)", text)
    if not m:
        raise RuntimeError("CMakeLists.txt: project(HinesBatch VERSION x.y.z) not found")
    return m.group(1)


class CMakeExtension(Extension):
    """A shared object the CMake build makes: target, and the file's glob in python/hinesbatch
    of the build tree."""

    def __init__(self, name, target, built):
        super().__init__(name, sources=[])
        self.target, self.built = target, built


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if shutil.which("cmake") is None:
            raise RuntimeError("hinesbatch needs cmake to build (Debian: apt-get install cmake)")
        kokkos = os.environ.get("HINESBATCH_KOKKOS_ROOT") or os.environ.get("Kokkos_ROOT")
        if not kokkos and (ROOT / ".deps" / "install" / "openmp").exists():
            kokkos = str(ROOT / ".deps" / "install" / "openmp")  # scripts/bootstrap.sh's
        if not kokkos:
            # CMake's own search (CMAKE_PREFIX_PATH, a Spack view); its error says what failed.
            print("hinesbatch: no HINESBATCH_KOKKOS_ROOT and no .deps/install/openmp "
                  "(scripts/bootstrap.sh): CMake looks for a Kokkos (>= 3.4, built with "
                  "-DCMAKE_POSITION_INDEPENDENT_CODE=ON) on its own", file=sys.stderr)
        build_dir = os.environ.get("HINESBATCH_BUILD_DIR")
        if build_dir:
            build = pathlib.Path(build_dir).resolve()
            if not (build / "CMakeCache.txt").exists():
                raise RuntimeError("HINESBATCH_BUILD_DIR=%s is not a configured CMake build tree"
                                   % build_dir)
        else:
            build = pathlib.Path(self.build_temp).resolve() / "cmake"
            build.mkdir(parents=True, exist_ok=True)
            args = [
                "cmake", "-S", str(ROOT), "-B", str(build),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DHINESBATCH_PYTHON=ON",
                "-DPython_EXECUTABLE=" + sys.executable,
                "-DHINESBATCH_ENABLE_TESTS=OFF",
                "-DHINESBATCH_ENABLE_PERF_TESTS=OFF",
                "-DHINESBATCH_ENABLE_EXAMPLES=OFF",
                "-DHINESBATCH_ENABLE_TOOLS=OFF",
                "-DHINESBATCH_ENABLE_MPI=OFF",
                "-DHINESBATCH_ENABLE_KOKKOSKERNELS=OFF",
            ]
            if kokkos:
                args.append("-DKokkos_ROOT=" + kokkos)
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            args += shlex.split(os.environ.get("HINESBATCH_CMAKE_ARGS", ""))
            subprocess.run(args, check=True)
        jobs = os.environ.get("HINESBATCH_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", ext.target, "--parallel",
                        jobs], check=True)
        built = sorted((build / "python" / "hinesbatch").glob(ext.built))
        if not built:
            raise RuntimeError("the build made no %s under %s" % (ext.built, build))
        destination = pathlib.Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], destination)

setup(
    version=project_version(),
    # The module, and the C interface that hinesbatch.capi.Library() loads (named by
    # setuptools as an extension, so that editable installs place it too).
    ext_modules=[CMakeExtension("hinesbatch._hinesbatch", "_hinesbatch", "_hinesbatch*.so"),
                 CMakeExtension("hinesbatch.libhinesbatch_c", "hinesbatch_c",
                                "libhinesbatch_c.so")],
    cmdclass={"build_ext": CMakeBuild},
)
