// GitHub pull-request activity as kaizen events: the one mapping both doors use, the webhook
// (`POST /v1/webhooks/github`) and the offline verb (`kaizen github ingest`). Pure: a payload in,
// event lines out; no I/O, no clock. The events then go through the one pipeline like any other.
//
//   pull_request opened|reopened|synchronize|edited|ready_for_review, by an agent -> `work`
//   pull_request closed, by an agent                        -> `reward` merge_outcome merged|closed
//   pull_request_review submitted on an agent's PR          -> `feedback` (decision, free text)
//   pull_request_review_comment created on an agent's PR    -> `feedback` with one annotation
//
// A pull request is an agent's when its author's login, the first segment of its head branch
// ("copilot/fix-12", "claude/issue-7") or a `Co-authored-by:` trailer of its body matches the
// `kaizen git scan` agent pattern (signals/git_agent.h). Everything on a person's pull request,
// and every review or comment by a GitHub App (user.type "Bot"), maps to nothing: kaizen learns
// from people reviewing agents.
//
// Every event's id is a UUID v7 at the object's own time whose other bits are a BLAKE2b hash of
// the object's identity (repository, number, head sha; review id; comment id; close time), so a
// redelivered webhook or a re-ingested file is refused by the log as a duplicate id: replays are
// idempotent without any delivery bookkeeping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "model/event_kind.h"
#include "signals/git_agent.h"

namespace kaizen::signals {

// The GitHub events kaizen maps, by their `X-GitHub-Event` names.
inline constexpr std::string_view kGithubPullRequest = "pull_request";
inline constexpr std::string_view kGithubReview = "pull_request_review";
inline constexpr std::string_view kGithubReviewComment = "pull_request_review_comment";
inline constexpr std::string_view kGithubPing = "ping";

// Whether `event` is one of the four names above.
bool IsKnownGithubEvent(std::string_view event);

struct GithubSource {
  std::string_view event;  // the X-GitHub-Event header, or `--event`
  // For payloads without the webhook envelope (`gh api` output): the repository (OWNER/NAME) and
  // the pull request's number when the objects do not name them (a review or comment names
  // them through its `pull_request_url`). Empty / nullopt: not given.
  std::string_view repo;
  std::optional<uint64_t> pr;
};

struct GithubEvent {
  model::EventKind kind = model::EventKind::kWork;
  std::string id;     // the event's UUID, also inside `json`
  std::string json;   // one line, no newline
  std::string label;  // for people: "work github:OWNER/NAME#2@ec26c3e57ca3"
};

struct GithubMapping {
  std::vector<GithubEvent> events;
  // Why objects gave no event ("pull request #2 is Codertocat's, not an agent's"), one each.
  std::vector<std::string> ignored;
};

// Maps one payload: a webhook delivery body (the envelope object), or `gh api` output of the same
// objects without it (a pull request object, a review or review comment object, or an array of
// them). InvalidArgument names the field path, its value and the rule when the payload is not JSON
// or not a shape GitHub documents for `source.event`; nothing is mapped then. An event kaizen does
// not map is not an error: it gives no events and one `ignored` line.
Result<GithubMapping> MapGithubPayload(std::string_view payload, const GithubSource& source,
                                       const AgentMatcher& agents);

// The work product id of pull request `number` of `repo`: what every event of it names.
std::string GithubWorkId(std::string_view repo, uint64_t number);

}  // namespace kaizen::signals
