# Sourced by impact.sh and policy.sh, the steps that call GitHub's API with the answer in "$work/answer".

# What GitHub said, for the log: its `message`, printable ASCII only, at most 200 bytes.
said() {
  local message
  message=$(jq -r '.message? // empty' "$work/answer" 2> /dev/null || true)
  printf '%s' "${message:0:200}" | LC_ALL=C tr -c ' -~' '?'
}
