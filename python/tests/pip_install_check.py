"""pip install . and pip install -e . into fresh venvs (Debian's numpy through
--system-site-packages, no network: --no-build-isolation --no-index), then the README's
Python example run by the installed package.

    python3 pip_install_check.py SOURCE_DIR BUILD_DIR WORK_DIR

BUILD_DIR: a configured build tree (HINESBATCH_BUILD_DIR), so that the test builds only the
module's target instead of the whole library again; setup.py's own configure (what a user
without a build tree gets) is the same CMake with the tests and tools off.
Exit 77 (skipped) when the README's morphology (../shared) is missing."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

source, build, work = (pathlib.Path(p).resolve() for p in sys.argv[1:4])
readme = (source / "README.md").read_text()
section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```python\n(.*?)```", section, re.S)
assert len(blocks) >= 2, "the README's Python section has no example"
if not (source.parent / "shared" / "morphologies" / "96ML.CNG.swc").exists():
    print("skipped: ../shared/morphologies/96ML.CNG.swc (the README's example) is missing")
    sys.exit(77)

shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
# setuptools stages the package in the source's build/lib.*: no file of an earlier layout
# may slip into this wheel.
for staged in list((source / "build").glob("lib.*")) + list((source / "build").glob("bdist.*")):
    shutil.rmtree(staged, ignore_errors=True)
env = dict(os.environ, HINESBATCH_BUILD_DIR=str(build), OMP_PROC_BIND="false",
           PIP_DISABLE_PIP_VERSION_CHECK="1")
env.pop("PYTHONPATH", None)  # the installed package, not the build tree's


def run(cmd, cwd):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, check=True)


for editable in (False, True):
    venv = work / ("venv-editable" if editable else "venv")
    run([sys.executable, "-m", "venv", "--system-site-packages", venv], work)
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "-q"] +
        (["-e"] if editable else []) + [source], work)
    where = source / "python" / "hinesbatch" if editable else venv
    check = ("import hinesbatch as hb, pathlib; "
             "assert pathlib.Path(hb.__file__).resolve().is_relative_to(%r), hb.__file__; "
             "c = hb.config(); assert c['version'] == hb.__version__; print(hb.__file__, c); "
             "import hinesbatch.capi as capi; lib = capi.Library(); "
             "assert lib.version == hb.__version__ and lib.backend == c['backend'], lib.backend"
             % str(where.resolve()))
    run([python, "-c", check], work)
    if editable:
        # the module built into the source folder: gone once checked
        for so in (source / "python" / "hinesbatch").glob("*.so"):
            so.unlink()
        continue
    # The README's example as a user runs it: from the source folder (its paths are relative
    # to it), with the installed package.
    example = work / "readme_example.py"
    example.write_text("\n".join(blocks) + "\nassert hb.__file__.startswith(%r), hb.__file__\n"
                       "assert len(r.spike_gids) > 0 and r.traces.shape[0] == 1\n"
                       "print('README example OK', len(r.spike_gids), 'spikes')\n" % str(venv))
    run([python, example], source)
print("pip install . and -e . OK")
