#!/usr/bin/env bash
# Step "Impact" of action.yml (input `impact: true`, on pull requests): what the change does to what each agent
# can call (`beeuni-lint impact`, Markdown), appended to the job summary and, when `comment: true` and the token
# may write pull requests, kept in ONE comment of the pull request: found by a hidden marker among the comments
# of the token's user, updated, or created when there is none. Fork pull requests (and Dependabot's, whose token
# is read-only) get the summary only. Nothing of the repository is run.
#
# The report is the binary's Markdown, escaped by it (each name a code span whose fence it chose for that name),
# and posted byte for byte: no text tool edits it (a `sed` that took a word out of a code span would end the span
# early and let the rest of the name be read as Markdown). The binary bounds it below a comment's size; should a
# report still be too long, a fixed note stands in for it rather than a cut one (a cut can fall inside a code span
# or a `<details>` and leave the rest of the page to the repository's text).
#
# Environment (from action.yml's `env:`; inputs arrive only this way):
#   BEEUNI_LINT   the binary (install.sh's `bin` output)
#   LINT_PATH, LINT_BASE, CONFIG, COMMENT   the inputs path, base, config and comment
#   GITHUB_TOKEN  the `token` input (default, the job's token)
#   PR_BASE_REF, PR_NUMBER, PR_HEAD_REPO   from github.event.pull_request
#   REPOSITORY    github.repository
#   SERVER_URL    github.server_url (the links go to <server>/<owner>/<repo>/blob/<sha>/<path>#L<line>)
#   ACTOR         github.actor
#   GITHUB_API_URL, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP (the runner's)
# Outputs: status (impact's exit status: 0 ran, 2 could not run), comment (created, updated, skipped or failed).
# The step fails only when impact could not run; a comment the API refuses is a warning (the summary has it all).
set -euo pipefail

# output NAME VALUE: a step output that no value can add a line to (see output.sh).
source "$(dirname "${BASH_SOURCE[0]}")/output.sh"
# said: what GitHub answered, for the log (see api.sh).
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
# A paragraph of its own (after a blank line: the report may end in an HTML block or a list, which a line right
# after it would join).
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '\n%s\n' "$1" >> "$GITHUB_STEP_SUMMARY"; fi; }
# A name from the event (a fork's owner/name) as the log and the job summary show it: only the characters a
# repository name may hold, any other byte as `?`: no line break (a workflow command), no Markdown.
plain() { printf '%s' "$1" | LC_ALL=C tr -c 'A-Za-z0-9._/-' '?'; }

# The hidden line that marks the comment as this step's: a comment is this step's when it STARTS with it (and is
# the token's user's), so the report may hold the same text anywhere else (inside a code span, as the binary
# writes every name) and is never edited to take it out.
marker='<!-- beeuni-lint:impact -->'
# GitHub refuses a comment over 65,536 characters and keeps 1 MiB of a step's summary: bytes under both (a
# character is at least one byte). The binary keeps its report well below both (its budget: docs/impact.md).
comment_limit=65536
summary_limit=1000000
# Comments read at most: 30 pages of 100 (a pull request with more gets a new comment rather than a long search).
max_pages=30

work="${RUNNER_TEMP:-/tmp}/beeuni-lint-impact.$$"
mkdir -p "$work"
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT

path="${LINT_PATH:-.}"
base="${LINT_BASE:-origin/$PR_BASE_REF}"
status=0
args=(impact --base "$base" --format markdown "$path")
[ -n "${CONFIG:-}" ] && args+=(--config "$CONFIG")
# Links to the lines of the commit linted: HEAD, on `pull_request` the merge commit, whose line numbers are the
# ones reported. Each part checked (a server's address, owner/name, a full commit id); when one is missing or odd,
# or the binary (an older release, the `version` input) has no `--link-base`, the report has no links.
server="${SERVER_URL:-}"
head=$(git rev-parse --verify --quiet 'HEAD^{commit}' 2> /dev/null || true)
knows_links=$("$BEEUNI_LINT" impact --help 2> /dev/null || true)
if [[ "$server" =~ ^https?://[A-Za-z0-9.-]+(:[0-9]+)?$ && "${REPOSITORY:-}" =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$
  && "$head" =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ && "$knows_links" == *--link-base* ]]; then
  args+=(--link-base "$server/$REPOSITORY/blob/$head")
fi
"$BEEUNI_LINT" "${args[@]}" > "$work/impact.md" || status=$?
output status "$status"
if [ "$status" -ne 0 ]; then
  output comment skipped
  echo "::error title=beeuni-lint::impact could not run (exit status $status; the message above says why)"
  exit 1
fi

# whole FILE LIMIT NOTE: FILE as it is, or NOTE (the script's own words) when FILE is longer than LIMIT bytes.
whole() {
  if [ "$(wc -c < "$1")" -le "$2" ]; then cat "$1"; else printf '%s\n' "$3"; fi
}

# After a blank line: the summary may already end in a table (the lint step's), which a line would join.
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    printf '\n'
    whole "$work/impact.md" "$summary_limit" "*The impact report is longer than a job summary holds: run \`beeuni-lint impact\` locally.*"
  } >> "$GITHUB_STEP_SUMMARY"
fi

summary_only() {
  output comment skipped
  echo "::notice title=beeuni-lint::$1 The impact report is in the job summary only."
  summary "$1 The impact report is in the job summary only."
  exit 0
}
[ "${COMMENT:-false}" = "true" ] || { output comment skipped; exit 0; }
if [ "$PR_HEAD_REPO" != "$REPOSITORY" ]; then
  summary_only "No comment: a pull request from the fork \`$(plain "$PR_HEAD_REPO")\` gets a read-only token."
fi
[ "$ACTOR" = "dependabot[bot]" ] && summary_only "No comment: Dependabot's runs get a read-only token."
[ -n "${GITHUB_TOKEN:-}" ] || summary_only "No comment: the token input is empty."
if ! [[ "$PR_NUMBER" =~ ^[0-9]+$ && "$REPOSITORY" =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ ]]; then
  summary_only "No comment: the event names no pull request of this repository."
fi

# The token reaches curl through a file only this job's user reads, never its command line.
umask 077
printf 'header = "Authorization: Bearer %s"\n' "$GITHUB_TOKEN" > "$work/auth"
api="${GITHUB_API_URL:-https://api.github.com}"
# call METHOD URL [BODY_FILE]: the HTTP status (000 when there was no answer); the answer's body in $work/answer.
call() {
  local data=() retry=() code
  [ $# -ge 3 ] && data=(--header "Content-Type: application/json" --data-binary "@$3")
  # A POST that timed out may have made the comment: it is not sent twice.
  [ "$1" = POST ] || retry=(--retry 1)
  rm -f "$work/answer"
  code=$(curl --silent --show-error --max-time 30 "${retry[@]}" --max-filesize 20000000 --config "$work/auth" \
    --header "Accept: application/vnd.github+json" --header "X-GitHub-Api-Version: 2022-11-28" \
    --request "$1" "${data[@]}" --output "$work/answer" --write-out '%{http_code}' "$2") || true
  [[ "$code" =~ ^[0-9]{3}$ ]] || code=000
  printf '%s' "$code"
}
failed() {
  output comment failed
  local why="HTTP $1"
  [ "$1" = 000 ] && why="no answer from $(plain "$api")"
  echo "::warning title=beeuni-lint::could not $2 the impact comment ($why: $(said)). The report is in the job summary."
  exit 0
}
refused() {
  summary_only "No comment: the token may not write pull requests (HTTP $1: $(said)); give the job \`permissions: pull-requests: write\`."
}

# The comment is the token's user's: a personal token's login, or (the job's token, which may not read /user)
# the Actions app's bot. Someone else's comment with the marker is never touched.
login="github-actions[bot]"
if [ "$(call GET "$api/user")" = 200 ]; then
  login=$(jq -r '.login // "github-actions[bot]"' "$work/answer")
fi

comments="$api/repos/$REPOSITORY/issues/$PR_NUMBER/comments"
id=""
for ((page = 1; page <= max_pages; page++)); do
  code=$(call GET "$comments?per_page=100&page=$page")
  case "$code" in
    200) ;;
    403 | 404) refused "$code" ;;
    *) failed "$code" "list the comments for" ;;
  esac
  # A page that is not a list of comments ends the search as an empty one would.
  id=$(jq -r --arg login "$login" --arg marker "$marker" \
    'first(.[]? | select(.user.login? == $login and ((.body? // "") | strings | startswith($marker))) | .id) // empty' \
    "$work/answer" 2> /dev/null || true)
  [ -n "$id" ] && break
  count=$(jq 'if type == "array" then length else 0 end' "$work/answer" 2> /dev/null || echo 0)
  [ "$count" -lt 100 ] && break
done

printf '%s\n' "$marker" > "$work/comment.md"
whole "$work/impact.md" "$((comment_limit - ${#marker} - 1))" \
  "*The impact report is longer than a comment holds: the job summary has it.*" >> "$work/comment.md"
jq -n --rawfile body "$work/comment.md" '{body: $body}' > "$work/request.json"

if [[ "$id" =~ ^[0-9]+$ ]]; then
  code=$(call PATCH "$api/repos/$REPOSITORY/issues/comments/$id" "$work/request.json")
  case "$code" in
    200) output comment updated; echo "Updated the impact comment $id." ;;
    403) refused "$code" ;;
    *) failed "$code" "update" ;;
  esac
else
  code=$(call POST "$comments" "$work/request.json")
  case "$code" in
    201) output comment created; echo "Created the impact comment $(jq -r '.id' "$work/answer" | tr -cd '0-9')." ;;
    403) refused "$code" ;;
    *) failed "$code" "create" ;;
  esac
fi
