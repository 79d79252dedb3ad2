// Internal to signals/github_events: the kaizen event lines (docs/event-model.md) written from
// GitHub's objects. Every string is capped to the log's limits (identifiers 256 bytes, free text
// 16 KiB), so a line these functions write passes validation whatever the payload held.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "signals/github_events.h"
#include "signals/github_payload.h"

namespace kaizen::signals::github {

// The pull request a review or comment is about: in full when the payload carries it (then the
// feedback names its work product in full, and needs no recorded work), else only its identity
// (`gh api` reviews and comments: the feedback then names the work recorded for that version).
struct Target {
  const PullRequest* pr = nullptr;
  std::string repo;
  uint64_t number = 0;
  std::string version;  // the head sha the review or comment was made on
  std::string agent;    // empty when not known (no pull request object)
};

// The `work` event of a pull request at its head sha. `at_ms`: the event's time.
GithubEvent WorkEvent(const PullRequest& pr, std::string_view agent, int64_t at_ms);

// The merge_outcome `reward` of a closed pull request: raw_value "merged" (1.0) or "closed"
// (0.5), seed 001's table. REQUIRES: pr.closed_ms.
GithubEvent MergeOutcomeEvent(const PullRequest& pr, std::string_view agent);

// The `feedback` of a submitted review. `decision`: "approved", "needs-work" or empty (a
// comment). REQUIRES: review.submitted_ms.
GithubEvent ReviewFeedbackEvent(const Review& review, const Target& target,
                                std::string_view decision);

// The `feedback` of one line comment: an annotation on its file and lines, its text also the
// review's free text (where kaizen's themes and sentiment are read from).
GithubEvent CommentFeedbackEvent(const ReviewComment& comment, const Target& target);

}  // namespace kaizen::signals::github
