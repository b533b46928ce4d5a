"""The build backend of beeuni-lint's Python package (PEP 517).

Building a wheel (`pip install .`, which is what the `beeuni-lint-wheel`
pre-commit hook, `language: python`, runs on this repository at the commit
it is pinned to) installs the released wheel of exactly this version for
this platform (`pip download --only-binary=:all: beeuni-lint==VERSION`),
built by CI with the `dist` profile. Where there is none, it fails with one
line saying so and what to use instead; it never starts a Rust build of
several minutes that nobody asked for. Building from the checked-out source
is asked for with BEEUNI_LINT_FROM_SOURCE=1 (and needs cargo); every step
of it, and the sdist and editable builds, go to maturin.
"""

import os
import re
import shutil
import subprocess
import sys

MATURIN = "maturin>=1.9,<2"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _from_source():
    return os.environ.get("BEEUNI_LINT_FROM_SOURCE") == "1"


def _fail(message):
    # One line, not a traceback: pip shows what the backend printed, and pre-commit shows pip's output.
    print(f"beeuni-lint: {message}", file=sys.stderr)
    raise SystemExit(1)


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
        _fail(f"no released wheel of beeuni-lint {version} for this platform; use the `beeuni-lint` hook "
              "(builds with cargo) or install Rust and set BEEUNI_LINT_FROM_SOURCE=1")
    wheels = sorted(set(os.listdir(wheel_directory)) - before)
    if len(wheels) != 1 or not wheels[0].endswith(".whl"):
        _fail(f"expected one downloaded wheel of beeuni-lint {version}, found {wheels}")
    return wheels[0]
