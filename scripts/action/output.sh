# Sourced by install.sh and lint.sh (steps of action.yml): how a step writes its outputs to $GITHUB_OUTPUT.
# shellcheck shell=bash
# Each output as `name<<DELIMITER` ... `DELIMITER` with a random delimiter the value does not hold, so that no value
# (an input may hold a line break) can add a line, and so an output, of its own.
output() {
  local delimiter
  delimiter="beeuni-lint-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  while [[ "$2" == *"$delimiter"* ]]; do
    delimiter="beeuni-lint-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  done
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >> "$GITHUB_OUTPUT"
}
