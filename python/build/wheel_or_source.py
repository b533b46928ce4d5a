"""The build backend of beeuni-lint's Python package (PEP 517).

Every step goes to maturin, which builds the wheel from the Rust source,
except one: building a wheel where no `cargo` is on PATH. There it fetches
the released wheel of exactly this version for this platform
(`pip download --only-binary=:all: beeuni-lint==VERSION`) instead of
failing. That is what lets the `beeuni-lint-wheel` pre-commit hook
(`language: python`, which runs `pip install .` on this repository at the
tag it is pinned to) work on machines without a Rust toolchain. With cargo
present, `pip install .` builds the checked-out source as usual.
"""

import os
import re
import shutil
import subprocess
import sys

MATURIN = "maturin>=1.9,<2"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _from_source():
    return shutil.which("cargo") is not None


def _version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as manifest:
        match = re.search(r'^version = "([^"]+)"$', manifest.read(), re.MULTILINE)
    if match is None:
        raise RuntimeError("no version in Cargo.toml")
    return match.group(1)


def get_requires_for_build_wheel(config_settings=None):
    return [MATURIN] if _from_source() else ["pip"]


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
        import maturin

        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    version = _version()
    print(f"beeuni-lint: no cargo on PATH: installing the released wheel of beeuni-lint {version}", file=sys.stderr)
    before = set(os.listdir(wheel_directory))
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--dest", wheel_directory, f"beeuni-lint=={version}"]
    if subprocess.run(command).returncode != 0:
        raise RuntimeError(
            f"beeuni-lint {version} has no released wheel for this platform, and building it from source needs "
            "a Rust toolchain (https://rustup.rs): install one, or use the `beeuni-lint` hook")
    wheels = sorted(set(os.listdir(wheel_directory)) - before)
    if len(wheels) != 1 or not wheels[0].endswith(".whl"):
        raise RuntimeError(f"expected one downloaded wheel, found {wheels}")
    return wheels[0]
