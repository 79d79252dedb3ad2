#include "signals/github_payload.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "ingest/validate.h"
#include "model/json_access.h"
#include "model/timestamp.h"

namespace kaizen::signals::github {
namespace {

constexpr int64_t kMinMs = 946684800000LL;     // 2000-01-01: the log refuses anything older
constexpr int64_t kMaxMs = 253402300799999LL;  // 9999-12-31T23:59:59.999Z

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

std::string Node::Child(std::string_view key) const {
  return path == "(payload)" ? std::string(key) : path + "." + std::string(key);
}

void Reader::Fail(const std::string& path, const std::string& message) {
  if (status_.ok()) status_ = InvalidArgument(path + ": " + message);
}

std::optional<simdjson::dom::element> Reader::Field(const Node& n, std::string_view key,
                                                    bool required, std::string_view what) {
  simdjson::dom::element v;
  if (!ok()) return std::nullopt;
  if (n.value.get_object().at_key(key).get(v) != simdjson::SUCCESS || v.is_null()) {
    if (required) Fail(n.Child(key), fmt::format("missing (required {})", what));
    return std::nullopt;
  }
  return v;
}

std::optional<Node> Reader::Object(const Node& n, std::string_view key, bool required) {
  auto v = Field(n, key, required, "object");
  if (!v) return std::nullopt;
  if (!v->is_object()) {
    Fail(n.Child(key), fmt::format("{} is not an object", ingest::ShowValue(*v)));
    return std::nullopt;
  }
  return Node{*v, n.Child(key)};
}

std::optional<std::string> Reader::String(const Node& n, std::string_view key, bool required) {
  auto v = Field(n, key, required, "string");
  if (!v) return std::nullopt;
  std::string_view s;
  if (v->get_string().get(s) != simdjson::SUCCESS) {
    Fail(n.Child(key), fmt::format("{} is not a string", ingest::ShowValue(*v)));
    return std::nullopt;
  }
  if (required && s.empty()) {
    Fail(n.Child(key), "is empty (required non-empty string)");
    return std::nullopt;
  }
  return std::string(s);
}

std::optional<uint64_t> Reader::Uint(const Node& n, std::string_view key, bool required) {
  auto v = Field(n, key, required, "whole number");
  if (!v) return std::nullopt;
  uint64_t u = 0;
  if (v->get_uint64().get(u) != simdjson::SUCCESS) {
    Fail(n.Child(key), fmt::format("{} is not a whole number >= 0", ingest::ShowValue(*v)));
    return std::nullopt;
  }
  return u;
}

std::optional<bool> Reader::Bool(const Node& n, std::string_view key) {
  auto v = Field(n, key, false, "boolean");
  if (!v) return std::nullopt;
  bool b = false;
  if (v->get_bool().get(b) != simdjson::SUCCESS) {
    Fail(n.Child(key), fmt::format("{} is not true or false", ingest::ShowValue(*v)));
    return std::nullopt;
  }
  return b;
}

std::optional<int64_t> Reader::Time(const Node& n, std::string_view key, bool required) {
  std::optional<std::string> s = String(n, key, required);
  if (!s) return std::nullopt;
  auto t = model::ParseTimestamp(*s);
  if (!t.ok()) {
    Fail(n.Child(key), fmt::format("{} is not an ISO 8601 timestamp (GitHub sends "
                                   "2019-05-15T15:20:33Z)",
                                   model::QuoteForMessage(*s)));
    return std::nullopt;
  }
  if (t->unix_ms < kMinMs || t->unix_ms > kMaxMs) {
    Fail(n.Child(key),
         fmt::format("{} is outside 2000-01-01..9999-12-31", model::QuoteForMessage(*s)));
    return std::nullopt;
  }
  return t->unix_ms;
}

std::optional<PullRequest> ReadPullRequest(Reader& r, const Node& n, std::string_view repo,
                                           uint64_t number) {
  PullRequest pr;
  if (!repo.empty()) {
    pr.repo = repo;
  } else if (auto base = r.Object(n, "base", false)) {
    // A pull request from `gh api` has no envelope: its repository is the base's.
    if (auto base_repo = r.Object(*base, "repo", true)) {
      pr.repo = r.String(*base_repo, "full_name", true).value_or("");
    }
  } else if (r.ok()) {
    r.Fail(n.Child("base"), "missing (required object: the repository is base.repo.full_name)");
  }
  if (auto base = r.Object(n, "base", false)) {
    pr.base_sha = r.String(*base, "sha", false).value_or("");
  }
  pr.number = number != 0 ? number : r.Uint(n, "number", true).value_or(0);
  if (auto head = r.Object(n, "head", true)) {
    pr.head_sha = r.String(*head, "sha", true).value_or("");
    pr.head_ref = r.String(*head, "ref", false).value_or("");
  }
  if (auto user = r.Object(n, "user", true))
    pr.author = r.String(*user, "login", true).value_or("");
  pr.title = r.String(n, "title", false).value_or("");
  pr.body = r.String(n, "body", false).value_or("");
  pr.html_url = r.String(n, "html_url", false).value_or("");
  pr.closed = r.String(n, "state", false).value_or("") == "closed";
  pr.merged = r.Bool(n, "merged").value_or(false);
  pr.created_ms = r.Time(n, "created_at", false);
  pr.updated_ms = r.Time(n, "updated_at", false);
  pr.closed_ms = r.Time(n, "closed_at", false);
  // The webhook's closed pull request says `merged`; a pull request in a list from the API does
  // not, but a merged one always has `merged_at`.
  if (r.Time(n, "merged_at", false).has_value()) pr.merged = true;
  pr.commits = r.Uint(n, "commits", false);
  pr.additions = r.Uint(n, "additions", false);
  pr.deletions = r.Uint(n, "deletions", false);
  pr.changed_files = r.Uint(n, "changed_files", false);
  pr.merge_commit_sha = r.String(n, "merge_commit_sha", false).value_or("");
  if (!r.ok()) return std::nullopt;
  if (pr.number == 0) r.Fail(n.Child("number"), "0 is not a pull request number (they start at 1)");
  if (!r.ok()) return std::nullopt;
  return pr;
}

namespace {

// user.login and whether user.type is "Bot".
void ReadUser(Reader& r, const Node& n, std::string* login, bool* bot) {
  if (auto user = r.Object(n, "user", true)) {
    *login = r.String(*user, "login", true).value_or("");
    *bot = r.String(*user, "type", false).value_or("") == "Bot";
  }
}

}  // namespace

std::optional<Review> ReadReview(Reader& r, const Node& n) {
  Review v;
  v.id = r.Uint(n, "id", true).value_or(0);
  // The webhook sends lower case (`approved`), the REST API upper case (`APPROVED`).
  v.state = Lower(r.String(n, "state", true).value_or(""));
  v.body = r.String(n, "body", false).value_or("");
  ReadUser(r, n, &v.reviewer, &v.bot);
  v.commit_id = r.String(n, "commit_id", false).value_or("");
  v.html_url = r.String(n, "html_url", false).value_or("");
  // A pending review has not been submitted, and has no submitted_at.
  v.submitted_ms = r.Time(n, "submitted_at", v.state != "pending");
  if (!r.ok()) return std::nullopt;
  return v;
}

std::optional<ReviewComment> ReadReviewComment(Reader& r, const Node& n) {
  ReviewComment c;
  c.id = r.Uint(n, "id", true).value_or(0);
  c.body = r.String(n, "body", false).value_or("");
  ReadUser(r, n, &c.reviewer, &c.bot);
  c.path = r.String(n, "path", true).value_or("");
  c.diff_hunk = r.String(n, "diff_hunk", false).value_or("");
  c.commit_id = r.String(n, "commit_id", false).value_or("");
  c.html_url = r.String(n, "html_url", false).value_or("");
  c.line = r.Uint(n, "line", false);
  c.start_line = r.Uint(n, "start_line", false);
  c.original_line = r.Uint(n, "original_line", false);
  c.original_start_line = r.Uint(n, "original_start_line", false);
  c.created_ms = r.Time(n, "created_at", true).value_or(0);
  if (!r.ok()) return std::nullopt;
  return c;
}

std::optional<std::pair<std::string, uint64_t>> ParsePullRequestUrl(std::string_view url) {
  constexpr std::string_view kRepos = "/repos/";
  const size_t at = url.find(kRepos);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = url.substr(at + kRepos.size());
  const size_t pulls = rest.find("/pulls/");
  if (pulls == std::string_view::npos) return std::nullopt;
  const std::string_view repo = rest.substr(0, pulls);
  const std::string_view number = rest.substr(pulls + 7);
  const size_t slash = repo.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == repo.size() ||
      repo.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
  if (ec != std::errc() || end != number.data() + number.size() || n == 0) return std::nullopt;
  return std::make_pair(std::string(repo), n);
}

}  // namespace kaizen::signals::github
