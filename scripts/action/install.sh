#!/usr/bin/env bash
# Step "Install beeuni-lint" of action.yml: fetch the released, checksummed
# binary of the wanted version, or, when there is no such release, ask for
# a (cached) build from the action's own source.
#
# Environment (from action.yml's `env:`; nothing else is read):
#   VERSION       the `version` input: "", "0.1.0" or "v0.1.0"
#   ACTION_REF    the ref the workflow used the action at (`github.action_ref`)
#   ACTION_PATH   the action's files (`github.action_path`)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT (set by the runner)
#   BEEUNI_LINT_RELEASES  where releases are (default: the project's GitHub
#                 releases); a test points it at a local folder (file://)
# Outputs: build (true|false), bin (the binary's path), version, and for a
# build cache-key and cache-dir.
set -euo pipefail

releases="${BEEUNI_LINT_RELEASES:-https://github.com/beeuni/beeuni-lint/releases/download}"
# output NAME VALUE: a step output that no value can add a line to (see output.sh).
source "$(dirname "${BASH_SOURCE[0]}")/output.sh"

# The version of the action's own source, from its Cargo.toml.
source_version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$ACTION_PATH/Cargo.toml" | head -n 1)
semver='^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$'

# An input as the log shows it: only the characters of a version or a ref, any other byte as `?` (no line break,
# which would start a workflow command).
plain() { printf '%s' "$1" | LC_ALL=C tr -c 'A-Za-z0-9._/+-' '?'; }

download() { curl --fail --silent --show-error --location --retry 3 --output "$2" "$1"; }

wanted="${VERSION#v}"
if [ -z "$wanted" ] && [[ "${ACTION_REF#v}" =~ $semver ]]; then
  # The action was used at a release tag (beeuni/beeuni-lint@v0.1.0): the binary of that release.
  wanted="${ACTION_REF#v}"
elif [ -z "$wanted" ] && [[ "$ACTION_REF" =~ ^[0-9a-f]{40}$ ]]; then
  # Pinned by commit: the release of the source's version, if it was built from this very commit (its COMMIT file).
  commit_file="${RUNNER_TEMP:-/tmp}/beeuni-lint-commit.$$"
  if download "$releases/v$source_version/COMMIT" "$commit_file" 2> /dev/null \
    && [ "$(tr -d '\r\n' < "$commit_file")" = "$ACTION_REF" ]; then
    wanted="$source_version"
  fi
  rm -f "$commit_file"
fi
if [ -n "$wanted" ] && ! [[ "$wanted" =~ $semver ]]; then
  echo "::error title=beeuni-lint::version \"$(plain "$VERSION")\" is not a version number such as 0.1.0"
  exit 1
fi

case "${RUNNER_OS:-$(uname -s)}/${RUNNER_ARCH:-$(uname -m)}" in
  Linux/X64 | Linux/x86_64) target=x86_64-unknown-linux-musl ;;
  Linux/ARM64 | Linux/aarch64) target=aarch64-unknown-linux-musl ;;
  macOS/X64 | Darwin/x86_64) target=x86_64-apple-darwin ;;
  macOS/ARM64 | Darwin/arm64) target=aarch64-apple-darwin ;;
  Windows/X64) target=x86_64-pc-windows-msvc ;;
  *) target="" ;;
esac
exe=""
[ "$target" = x86_64-pc-windows-msvc ] && exe=".exe"

build() {
  # The source at the action's ref is the version asked for: build it (or take it from the cache).
  local key dir
  key="beeuni-lint-${RUNNER_OS:-local}-${RUNNER_ARCH:-local}-$(source_hash)"
  dir="${RUNNER_TEMP:-/tmp}/beeuni-lint-build"
  output build true
  output version "$source_version"
  output cache-key "$key"
  output cache-dir "$dir"
  output bin "$dir/bin/beeuni-lint$exe"
}

# A digest of what the build reads, for the cache key (hashFiles() only sees the workspace, not the action).
source_hash() {
  (cd "$ACTION_PATH" && find Cargo.toml Cargo.lock src -type f | LC_ALL=C sort | xargs cat | checksum)
}

checksum() {
  if command -v sha256sum > /dev/null; then sha256sum | cut -d' ' -f1; else shasum -a 256 | cut -d' ' -f1; fi
}

if [ -z "$wanted" ]; then
  ref=$(plain "$ACTION_REF")
  echo "The action is used at \"${ref:-an unknown ref}\", not at a release: building beeuni-lint $source_version from its source."
  build
  exit 0
fi
if [ -z "$target" ]; then
  echo "No released binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}: building from source."
  [ "$wanted" = "$source_version" ] || { echo "::error title=beeuni-lint::version $wanted cannot be built here: the action's source is $source_version; use the action at v$wanted"; exit 1; }
  build
  exit 0
fi

asset="beeuni-lint-$target$exe"
dir="${RUNNER_TEMP:-/tmp}/beeuni-lint-$wanted"
bin="$dir/beeuni-lint$exe"
mkdir -p "$dir"
if ! download "$releases/v$wanted/$asset" "$dir/$asset.download"; then
  if [ "$wanted" = "$source_version" ]; then
    echo "::notice title=beeuni-lint::no released binary v$wanted for $target; building from source (cached after the first run)"
    build
    exit 0
  fi
  echo "::error title=beeuni-lint::no release v$wanted of beeuni-lint with a binary for $target at $releases"
  exit 1
fi
if ! download "$releases/v$wanted/$asset.sha256" "$dir/$asset.sha256"; then
  echo "::error title=beeuni-lint::release v$wanted has $asset but not its checksum $asset.sha256: not installing an unverified binary"
  exit 1
fi
expected=$(cut -d' ' -f1 < "$dir/$asset.sha256" | tr -d '\r\n')
actual=$(checksum < "$dir/$asset.download")
if [ "$expected" != "$actual" ]; then
  echo "::error title=beeuni-lint::checksum mismatch for $asset of v$wanted: expected $expected, downloaded $actual; not installing it"
  rm -f "$dir/$asset.download"
  exit 1
fi
mv "$dir/$asset.download" "$bin"
chmod +x "$bin"
echo "Installed beeuni-lint $wanted ($target, sha256 $actual)."
output build false
output version "$wanted"
output bin "$bin"
