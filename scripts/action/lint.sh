#!/usr/bin/env bash
# Step "Lint" of action.yml: run beeuni-lint on the project, print annotations
# and the job summary, write SARIF, and decide whether it can be uploaded.
#
# Environment (from action.yml's `env:`; inputs arrive only this way):
#   BEEUNI_LINT   the binary (install.sh's `bin` output)
#   LINT_PATH, LINT_BASE, FAIL_ON, MIN_SEVERITY, ONLY_CHANGED, CONFIG, CATEGORY,
#   UPLOAD_SARIF, SARIF_FILE   the inputs
#   PR_BASE_REF   github.event.pull_request.base.ref ("" outside pull requests)
#   PR_HEAD_REPO  github.event.pull_request.head.repo.full_name
#   REPOSITORY    github.repository
#   ACTOR         github.actor
#   GITHUB_EVENT_NAME, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP (the runner's)
# Outputs: status (the exit status: 0, 1 or 2), errors, warnings, sarif-file,
# category, upload (true|false).
set -euo pipefail

# output NAME VALUE: a step output that no value can add a line to (see output.sh).
source "$(dirname "${BASH_SOURCE[0]}")/output.sh"
# A paragraph of its own, after a blank line: right after the findings' table, a line would be read as one more
# row of it.
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '\n%s\n' "$1" >> "$GITHUB_STEP_SUMMARY"; fi; }
# A name from the event (a fork's owner/name) as the log and the job summary show it: only the characters a
# repository name may hold, any other byte as `?`: no line break (a workflow command), no Markdown.
plain() { printf '%s' "$1" | LC_ALL=C tr -c 'A-Za-z0-9._/-' '?'; }

path="${LINT_PATH:-.}"
# One code-scanning category per project, so that two projects of a repository keep their own alerts.
category="$CATEGORY"
if [ -z "$category" ]; then
  project=$(printf '%s' "$path" | sed -e 's#^\(\./\)*##' -e 's#/*$##')
  category="beeuni-lint${project:+/$project}"
  [ "$project" = "." ] && category="beeuni-lint"
fi
sarif="$SARIF_FILE"
if [ -z "$sarif" ]; then
  sarif="${RUNNER_TEMP:-/tmp}/$(printf '%s' "$category" | tr -c 'A-Za-z0-9._-' '-').sarif"
fi

# Warnings and above unless the input asks for infos: a blocking check shows what blocks it.
args=(check "$path" --format github --sarif-file "$sarif" --fail-on "$FAIL_ON" --min-severity "${MIN_SEVERITY:-warning}")
[ -n "$CONFIG" ] && args+=(--config "$CONFIG")
# The report names its runs' categories itself (automationDetails.id), and upload-sarif gives its `category` only
# to a run without one: the input reaches code scanning only through the report.
[ -n "$CATEGORY" ] && args+=(--sarif-category "$CATEGORY")
base="$LINT_BASE"
if [ -z "$base" ] && [ -n "$PR_BASE_REF" ]; then
  # The pull request's base branch, as actions/checkout fetched it (fetch-depth: 0).
  base="origin/$PR_BASE_REF"
fi
if [ -n "$base" ]; then
  args+=(--base "$base")
  [ "$ONLY_CHANGED" = "true" ] && args+=(--only-changed)
elif [ "$ONLY_CHANGED" = "true" ]; then
  echo "::notice title=beeuni-lint::only-changed needs a base (a pull request, or the base input): reporting every finding"
fi

report="${RUNNER_TEMP:-/tmp}/beeuni-lint-report.$$"
status=0
"$BEEUNI_LINT" "${args[@]}" > "$report" || status=$?
cat "$report"
errors=$(grep -c '^::error ' "$report" || true)
warnings=$(grep -c '^::warning ' "$report" || true)
rm -f "$report"
output status "$status"
output errors "$errors"
output warnings "$warnings"
output category "$category"

upload=false
if [ "$status" -eq 2 ] || ! [ -s "$sarif" ]; then
  # The run could not happen (the message above says why): there is no report to upload.
  output sarif-file ""
elif [ "$UPLOAD_SARIF" != "true" ]; then
  output sarif-file "$sarif"
elif [ -n "$PR_BASE_REF" ] && [ "$PR_HEAD_REPO" != "$REPOSITORY" ]; then
  output sarif-file "$sarif"
  fork=$(plain "$PR_HEAD_REPO")
  why="gets no security-events: write token. The annotations above show every finding."
  echo "::notice title=beeuni-lint::SARIF upload skipped: a pull request from the fork $fork $why"
  summary "SARIF upload skipped: a pull request from the fork \`$fork\` $why"
elif [ "$ACTOR" = "dependabot[bot]" ]; then
  output sarif-file "$sarif"
  note="SARIF upload skipped: Dependabot's runs get a read-only token. The annotations above show every finding."
  echo "::notice title=beeuni-lint::$note"
  summary "$note"
else
  output sarif-file "$sarif"
  upload=true
fi
output upload "$upload"
