#!/usr/bin/env bash
# Step "Policy" of action.yml (input `policy: true`, on pull requests): `beeuni-lint impact --policy` judges the
# change by the `[policy]` of beeuni-lint.toml (docs/policy.md); each guarded gain is an error annotation at its
# line and a line of the job summary, and the step fails while one is not approved.
#
# Approval is the label the `approval-label` input names, accepted (`--approved`) only in the run its adding
# started (`pull_request` with action `labeled`, that label), when the one who added it is not the pull request's
# author, and when the pull request's timeline (read from GitHub's API) still shows it on, last added by someone
# other than the author. A push starts a `synchronize` run, which never accepts a label: every push needs the
# label added again (remove it and add it). Other runs do not accept it either, because the timeline lists a
# pushed commit at its author's date, which the author chooses: only the `labeled` run knows the label is newer
# than the head it judges.
#
# Or (when the `approval-teams` input lists teams and the label did not approve) an approving review of the head
# commit by a member of a listed team: review.sh.
#
# Environment (from action.yml's `env:`; inputs arrive only this way):
#   BEEUNI_LINT   the binary (install.sh's `bin` output)
#   LINT_PATH, LINT_BASE, CONFIG, APPROVAL_LABEL, APPROVAL_TEAMS   the inputs path, base, config, approval-label
#                 and approval-teams
#   GITHUB_TOKEN  the `token` input (default, the job's token)
#   PR_BASE_REF, PR_NUMBER, PR_AUTHOR, PR_HEAD_SHA   from github.event.pull_request
#   EVENT_ACTION, EVENT_LABEL, EVENT_SENDER   github.event.action, github.event.label.name, github.event.sender.login
#   REPOSITORY    github.repository
#   GITHUB_API_URL, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP (the runner's)
# Outputs: status (impact's exit status: 0 nothing unapproved, 1 a guarded gain not approved, 2 could not run),
# approved (true or false).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/output.sh"
# said: what GitHub answered, for the log (see api.sh).
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '%s\n' "$1" >> "$GITHUB_STEP_SUMMARY"; fi; }
# A login or label from the event as the log shows it: printable ASCII only.
plain() { printf '%s' "${1:0:100}" | LC_ALL=C tr -c 'A-Za-z0-9 ._/-' '?'; }
# Pages of a list (the timeline, the reviews) read at most, 100 items a page.
max_pages=30

work="${RUNNER_TEMP:-/tmp}/beeuni-lint-policy.$$"
mkdir -p "$work"
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT
umask 077

api="${GITHUB_API_URL:-https://api.github.com}"
# The token reaches curl through a file only this job's user reads, never its command line.
if [ -n "${GITHUB_TOKEN:-}" ]; then
  printf 'header = "Authorization: Bearer %s"\n' "$GITHUB_TOKEN" > "$work/auth"
else
  : > "$work/auth"
fi
# GET the API path $1 into $work/answer; prints the HTTP status (000: no answer).
get() {
  local code
  code=$(curl --silent --show-error --max-time 30 --retry 1 --max-filesize 20000000 --config "$work/auth" \
    --header "Accept: application/vnd.github+json" --header "X-GitHub-Api-Version: 2022-11-28" \
    --output "$work/answer" --write-out '%{http_code}' "$api$1") || code=000
  [[ "$code" =~ ^[0-9]{3}$ ]] || code=000
  printf '%s' "$code"
}
# Every page (100 items each, at most max_pages) of the list at API path $1 joined into the file $2; prints 200,
# or the status of the page that could not be read.
read_list() {
  local page=1 code
  echo '[]' > "$2"
  while [ "$page" -le "$max_pages" ]; do
    code=$(get "$1?per_page=100&page=$page")
    if [ "$code" != 200 ] || ! jq -e 'type == "array"' "$work/answer" > /dev/null 2>&1; then
      [ "$code" = 200 ] && code="200, not a list"
      printf '%s' "$code"
      return
    fi
    jq -s '.[0] + .[1]' "$2" "$work/answer" > "$work/joined.json"
    mv "$work/joined.json" "$2"
    [ "$(jq 'length' "$work/answer")" -lt 100 ] && break
    page=$((page + 1))
  done
  printf 200
}

label="${APPROVAL_LABEL:-}"
approved=false
why="no approval label"
if [ -z "$label" ]; then
  why="no approval label is set (the approval-label input)"
elif [ "${EVENT_ACTION:-}" != labeled ] || [ "${EVENT_LABEL:-}" != "$label" ]; then
  why="this run was not started by adding the label \`$(plain "$label")\` (a push needs it added again)"
elif [ "${EVENT_SENDER:-}" = "${PR_AUTHOR:-}" ]; then
  why="the label was added by the pull request's author"
elif ! [[ "${PR_NUMBER:-}" =~ ^[0-9]+$ && "${REPOSITORY:-}" =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ ]]; then
  why="the event names no pull request of this repository"
elif [ -z "${GITHUB_TOKEN:-}" ]; then
  why="the token input is empty: the timeline cannot be read"
else
  code=$(read_list "/repos/$REPOSITORY/issues/$PR_NUMBER/timeline" "$work/timeline.json")
  if [ "$code" != 200 ]; then
    why="the timeline could not be read (HTTP $(plain "$code")): give the job \`permissions: issues: read\`"
  else
    # The label's last event: added (by whom) or removed.
    last=$(jq -r --arg wanted "$label" \
      '[.[] | select((.event == "labeled" or .event == "unlabeled") and .label.name? == $wanted)] | last
       | if . == null then "none" else "\(.event) \(.actor.login? // "")" end' "$work/timeline.json")
    case "$last" in
      "labeled ${PR_AUTHOR:-}") why="the timeline shows the label last added by the pull request's author" ;;
      labeled\ ?*) approved=true; why="label added by $(plain "${last#labeled }")" ;;
      *) why="the timeline does not show the label on" ;;
    esac
  fi
fi
if [ "$approved" = false ] && [ -n "${APPROVAL_TEAMS//[[:space:],]/}" ]; then
  source "$(dirname "${BASH_SOURCE[0]}")/review.sh"
  review_approval
  if [ "$approved" = false ]; then
    echo "::notice title=beeuni-lint::no approving review: $review_why"
    why="$why; no approving review: $review_why"
  else
    why="$review_why"
  fi
fi
output approved "$approved"

path="${LINT_PATH:-.}"
base="${LINT_BASE:-origin/${PR_BASE_REF:-}}"
args=(impact --base "$base" --policy --format json "$path")
[ -n "${CONFIG:-}" ] && args+=(--config "$CONFIG")
[ "$approved" = true ] && args+=(--approved)
status=0
"$BEEUNI_LINT" "${args[@]}" > "$work/policy.json" || status=$?
output status "$status"
if [ "$status" -eq 2 ]; then
  echo "::error title=beeuni-lint::the policy could not be judged (exit status 2; the message above says why)"
  exit 1
fi

# One annotation and one summary line a finding. The report is the repository's text: a workflow command's
# message and properties get GitHub's escapes, so no value can end the command or start another.
jq -r '
  def msg: gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A") | gsub("[[:cntrl:]]"; "?");
  def prop: msg | gsub(":"; "%3A") | gsub(","; "%2C");
  .projects[] | .policy? // empty | .findings[]
  | "::\(if .approved then "notice" else "error" end) file=\(.path | prop),line=\(.line),col=\(.column),title=policy-gain::\(.message | msg)\(if .approved then " (approved)" else "" end)"
' "$work/policy.json"
count=$(jq '[.projects[] | .policy? // empty | .findings[]] | length' "$work/policy.json")
summary "### Capability policy"
summary ""
if [ "$count" -eq 0 ]; then
  summary "No guarded gain."
elif [ "$approved" = true ]; then
  summary "$count guarded gain(s), approved: $why."
else
  summary "$count guarded gain(s) need approval: $why."
fi
if [ "$status" -eq 1 ]; then
  echo "::error title=beeuni-lint::a guarded gain is not approved ($why)"
  exit 1
fi
