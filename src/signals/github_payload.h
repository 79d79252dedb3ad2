// Internal to signals/github_events: GitHub's pull-request objects read from a parsed payload,
// with every field error naming its path ("pull_request.head.sha: missing (required string)").
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::signals::github {

// A JSON value and where it sits in the payload, for error messages.
struct Node {
  simdjson::dom::element value;
  std::string path;  // "pull_request.head"; "(payload)" for the root
  std::string Child(std::string_view key) const;
};

// Reads fields, keeping the first error: the callers read a whole object flat and check status()
// once. A JSON null counts as absent (GitHub sends null for unset optional fields).
class Reader {
 public:
  std::optional<Node> Object(const Node& n, std::string_view key, bool required);
  // A string; nullopt when absent. `required` also refuses an empty one.
  std::optional<std::string> String(const Node& n, std::string_view key, bool required);
  std::optional<uint64_t> Uint(const Node& n, std::string_view key, bool required);
  std::optional<bool> Bool(const Node& n, std::string_view key);
  // An ISO 8601 timestamp between 2000 and 9999, as Unix milliseconds.
  std::optional<int64_t> Time(const Node& n, std::string_view key, bool required);
  // A problem found by the caller: `path: message`.
  void Fail(const std::string& path, const std::string& message);

  const Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

 private:
  std::optional<simdjson::dom::element> Field(const Node& n, std::string_view key, bool required,
                                              std::string_view what);
  Status status_;
};

struct PullRequest {
  std::string repo;  // OWNER/NAME
  uint64_t number = 0;
  std::string head_sha, head_ref;
  std::string base_sha;  // base.sha: the base branch's tip when the event was sent ("" if absent)
  std::string title, body, html_url;
  std::string author;  // user.login
  bool closed = false, merged = false;
  std::optional<int64_t> created_ms, updated_ms, closed_ms;
  std::optional<uint64_t> commits, additions, deletions, changed_files;
  std::string merge_commit_sha;
};

struct Review {
  uint64_t id = 0;
  std::string state;  // lower case: approved, changes_requested, commented, dismissed, pending
  std::string body, reviewer, commit_id, html_url;
  bool bot = false;  // user.type "Bot": a GitHub App, not a person
  std::optional<int64_t> submitted_ms;
};

struct ReviewComment {
  uint64_t id = 0;
  std::string body, reviewer, path, diff_hunk, commit_id, html_url;
  bool bot = false;
  std::optional<uint64_t> line, start_line, original_line, original_start_line;
  int64_t created_ms = 0;
};

// `repo` and `number` are what the envelope says (empty / 0: read them from the object itself:
// base.repo.full_name and number).
std::optional<PullRequest> ReadPullRequest(Reader& r, const Node& n, std::string_view repo,
                                           uint64_t number);
std::optional<Review> ReadReview(Reader& r, const Node& n);
std::optional<ReviewComment> ReadReviewComment(Reader& r, const Node& n);

// OWNER/NAME and the number from an API URL ".../repos/OWNER/NAME/pulls/N" (a review's or a
// comment's `pull_request_url`); nullopt when it is not one.
std::optional<std::pair<std::string, uint64_t>> ParsePullRequestUrl(std::string_view url);

}  // namespace kaizen::signals::github
