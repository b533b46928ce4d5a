#!/usr/bin/env bash
# Step "Build beeuni-lint" of action.yml, on a cache miss only: a release build
# of the action's own source with the pinned toolchain, into the cached folder.
#
# Environment: ACTION_PATH, CACHE_DIR and BIN (install.sh's outputs), TOOLCHAIN.
set -euo pipefail

if [ -x "$BIN" ]; then
  echo "beeuni-lint is already built at $BIN."
  exit 0
fi
cargo "+$TOOLCHAIN" build --release --locked --manifest-path "$ACTION_PATH/Cargo.toml" --target-dir "$CACHE_DIR/target"
mkdir -p "$(dirname "$BIN")"
cp "$CACHE_DIR/target/release/$(basename "$BIN")" "$BIN"
