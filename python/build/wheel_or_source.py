"""The build backend of beeuni-lint's Python package (PEP 517).

Building a wheel (`pip install .`, which is what the `beeuni-lint-wheel`
pre-commit hook, `language: python`, runs on this repository at the commit
it is pinned to) installs the released wheel of exactly this version for
this platform (`pip download --only-binary=:all: beeuni-lint==VERSION`),
built by CI with the `dist` profile. It never starts a Rust build of
several minutes that nobody asked for. Where there is no such wheel:
- built from a git checkout (pre-commit's clone of the hook repository),
  it makes a stand-in wheel whose `beeuni-lint` prints one line saying so
  and what to use instead, and exits 2. pre-commit treats a failed install
  as a crash ("An unexpected error has occurred: CalledProcessError" and
  pip's whole log); a hook that runs and fails shows just that line;
- elsewhere (an sdist), the build fails with that line.
Building from the checked-out source is asked for with
BEEUNI_LINT_FROM_SOURCE=1 (and needs cargo); every step of it, and the
sdist and editable builds, go to maturin.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile

MATURIN = "maturin>=1.9,<2"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _from_source():
    return os.environ.get("BEEUNI_LINT_FROM_SOURCE") == "1"


def _fail(message):
    # One line, not a traceback: pip shows what the backend printed, and pre-commit shows pip's output.
    print(f"beeuni-lint: {message}", file=sys.stderr)
    raise SystemExit(1)


def _no_wheel(version):
    return (f"no released wheel of beeuni-lint {version} for this platform; use the `beeuni-lint` hook "
            "(builds with cargo) or install Rust and set BEEUNI_LINT_FROM_SOURCE=1 (then `pre-commit clean`)")


def _stand_in(wheel_directory, version):
    """A wheel (py3-none-any) whose `beeuni-lint` says there is no released wheel and exits 2: the hook fails
    with that one line. Only ever built here, never published."""
    dist = f"beeuni_lint-{version}"
    module = "_beeuni_lint_no_wheel"
    files = {
        f"{module}.py": "import sys\n\n\ndef main():\n"
                        f"    sys.stderr.write({('beeuni-lint: ' + _no_wheel(version) + chr(10))!r})\n"
                        "    return 2\n",
        f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: beeuni-lint\nVersion: {version}\n"
                                      "Summary: beeuni-lint has no released wheel for this platform\n",
        f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: wheel_or_source\nRoot-Is-Purelib: true\n"
                                   "Tag: py3-none-any\n",
        f"{dist}.dist-info/entry_points.txt": f"[console_scripts]\nbeeuni-lint = {module}:main\n",
    }
    record = f"{dist}.dist-info/RECORD"
    lines = []
    for name, text in files.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}")
    lines.append(f"{record},,")
    files[record] = "\n".join(lines) + "\n"
    name = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
    return name


def _version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as manifest:
        match = re.search(r'^version = "([^"]+)"$', manifest.read(), re.MULTILINE)
    if match is None:
        raise RuntimeError("no version in Cargo.toml")
    return match.group(1)


def get_requires_for_build_wheel(config_settings=None):
    return [MATURIN] if _from_source() and shutil.which("cargo") is not None else ["pip"]


def get_requires_for_build_sdist(config_settings=None):
    return [MATURIN]


def get_requires_for_build_editable(config_settings=None):
    return [MATURIN]


def build_sdist(sdist_directory, config_settings=None):
    import maturin

    return maturin.build_sdist(sdist_directory, config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    import maturin

    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if _from_source():
        if shutil.which("cargo") is None:
            _fail("BEEUNI_LINT_FROM_SOURCE=1 builds from source, which needs cargo on PATH (https://rustup.rs)")
        import maturin

        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    version = _version()
    before = set(os.listdir(wheel_directory))
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--dest", wheel_directory, f"beeuni-lint=={version}"]
    download = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if download.returncode != 0:
        if "No matching distribution found" not in download.stdout:
            sys.stderr.write(download.stdout)
            _fail(f"could not download the released wheel of beeuni-lint {version} (pip's errors above)")
        if os.path.exists(os.path.join(ROOT, ".git")):
            return _stand_in(wheel_directory, version)
        _fail(_no_wheel(version))
    wheels = sorted(set(os.listdir(wheel_directory)) - before)
    if len(wheels) != 1 or not wheels[0].endswith(".whl"):
        _fail(f"expected one downloaded wheel of beeuni-lint {version}, found {wheels}")
    return wheels[0]
