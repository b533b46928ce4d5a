# Sourced by policy.sh (its `get`, `read_list`, `said`, `plain` and `$work`): approval by an approving review.
#
# `review_approval` sets `approved=true` when the latest review of some reviewer (a review that only comments does
# not replace an approval, as on GitHub) is APPROVED, of the pull request's head commit, by someone other than the
# author, who is an active member of a team APPROVAL_TEAMS lists (`org/team-slug`, separated by commas or spaces).
# A review's commit is GitHub's record, not the author's: a push makes every earlier review one of an older commit,
# so any run may accept a review (the `pull_request_review` run is the one a review starts). `review_why` says why
# not, or who approved. An answer other than 200 (a token that may not read reviews or teams) approves nothing and
# never fails the step by itself.
#
# Environment: APPROVAL_TEAMS, PR_HEAD_SHA (github.event.pull_request.head.sha), and policy.sh's.

# At most this many teams, and this many approving reviewers whose membership is asked: each costs a request.
max_teams=10
max_reviewers=10

review_approval() {
  review_why=""
  local teams team login code state
  read -r -a teams <<< "$(printf '%s' "${APPROVAL_TEAMS:-}" | tr ',\n\t' '   ')"
  if [ "${#teams[@]}" -gt "$max_teams" ]; then
    review_why="approval-teams lists more than $max_teams teams"
    return
  fi
  for team in "${teams[@]}"; do
    if ! [[ "$team" =~ ^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$ ]]; then
      review_why="the approval-teams entry \`$(plain "$team")\` is not \`org/team-slug\`"
      return
    fi
  done
  if ! [[ "${PR_NUMBER:-}" =~ ^[0-9]+$ && "${REPOSITORY:-}" =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ ]]; then
    review_why="the event names no pull request of this repository"
    return
  fi
  if ! [[ "${PR_HEAD_SHA:-}" =~ ^[0-9a-f]{40}([0-9a-f]{24})?$ ]]; then
    review_why="the event names no head commit"
    return
  fi
  # The review must be of the commit this run judges: the head itself, or (the merge checkout of a pull request
  # event) the second parent of the checked-out merge.
  if [ "$(git rev-parse --verify -q HEAD 2> /dev/null)" != "$PR_HEAD_SHA" ] \
    && [ "$(git rev-parse --verify -q 'HEAD^2' 2> /dev/null)" != "$PR_HEAD_SHA" ]; then
    review_why="the checked-out commit is not the pull request's head $(plain "$PR_HEAD_SHA")"
    return
  fi
  if [ -z "${GITHUB_TOKEN:-}" ]; then
    review_why="the token input is empty: the reviews cannot be read"
    return
  fi
  code=$(read_list "/repos/$REPOSITORY/pulls/$PR_NUMBER/reviews" "$work/reviews.json")
  if [ "$code" != 200 ]; then
    review_why="the reviews could not be read (HTTP $(plain "$code")): give the job \`permissions: pull-requests: read\`"
    return
  fi
  # The approvers of the head (logins as GitHub spells them, compared without case), or why there is none.
  local approvers
  approvers=$(jq -r --arg head "$PR_HEAD_SHA" --arg author "${PR_AUTHOR:-}" --argjson most "$max_reviewers" '
    reduce (.[] | select(.state? != "COMMENTED" and .state? != "PENDING")
                | select(.user.login? | type == "string" and test("^[A-Za-z0-9-]{1,39}$"))) as $r
      ({}; .[$r.user.login | ascii_downcase] = $r)
    | [.[] | select(.state == "APPROVED")] as $approvals
    | [$approvals[] | select(.commit_id? == $head)] as $of_head
    | [$of_head[] | select((.user.login | ascii_downcase) != ($author | ascii_downcase)) | .user.login] as $others
    | if $others != [] then $others[:$most][]
      elif $of_head != [] then "!author"
      elif $approvals != [] then "!older"
      else "!none" end' "$work/reviews.json")
  case "$approvers" in
    '!author') review_why="only the pull request's author approved its head commit"; return ;;
    '!older') review_why="the approving reviews are of an older commit (a push needs a new review)"; return ;;
    '!none') review_why="no reviewer's latest review approves"; return ;;
  esac
  review_why="no approver of the head commit is an active member of a listed team"
  for login in $approvers; do
    for team in "${teams[@]}"; do
      code=$(get "/orgs/${team%%/*}/teams/${team#*/}/memberships/$login")
      case "$code" in
        200)
          state=$(jq -r '.state? // empty | strings' "$work/answer" 2> /dev/null || true)
          if [ "$state" = active ]; then
            approved=true
            review_why="approving review of the head commit by $login (a member of $team)"
            return
          fi
          ;;
        404) ;; # not a member, or a team the token cannot see: the notice says both
        *)
          review_why="the token cannot read team memberships (HTTP $(plain "$code"): $(said)): give the job a token with read:org, or use the label"
          return
          ;;
      esac
    done
  done
  review_why="$review_why (GitHub answers 404 also to a token that cannot see the team: it needs read:org)"
}
