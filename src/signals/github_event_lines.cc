#include "signals/github_event_lines.h"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sodium.h>

#include <algorithm>

#include "base/json_writer.h"
#include "base/utf8.h"
#include "model/event_writer.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::signals::github {

using model::ContextField;
using model::EventField;
namespace {

using Writer = base::JsonWriter;

constexpr size_t kIdentBytes = 256;       // model/limits.h: identifiers
constexpr size_t kTextBytes = 16 * 1024;  // free text kept per field: what themes read
constexpr int64_t kDayMs = 86'400'000;
// The schema's ranges (model/schema.cc): AnnotationTarget lines 0..1e9, timeToDecisionMs
// 0..1e12, delay_days 0..1e6. GitHub's times span 2000..9999, which can exceed the last two.
constexpr uint64_t kMaxLine = 1'000'000'000;
constexpr int64_t kMaxDecisionMs = 1'000'000'000'000;
constexpr int64_t kMaxDelayDays = 1'000'000;

// An identifier as the log takes it: at most 256 bytes, and no control characters (GitHub's
// logins, shas and names have none; a payload may).
std::string Identifier(std::string_view s) {
  std::string out(base::Utf8Prefix(s, kIdentBytes));
  for (char& ch : out) {
    if (static_cast<unsigned char>(ch) < 0x20) ch = '?';
  }
  return out;
}
void Ident(Writer& w, std::string_view s) { base::Str(w, Identifier(s)); }
void Text(Writer& w, std::string_view s) { base::Str(w, base::Utf8Prefix(s, kTextBytes)); }

// A UUID v7 at `at_ms` whose other bits are BLAKE2b of the object's identity: the same object
// always gets the same id, so the log refuses a replay as a duplicate.
std::string StableId(int64_t at_ms, const std::string& identity) {
  uint8_t hash[16];
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(identity.data()),
                     identity.size(), nullptr, 0);
  return model::MakeUuidV7(at_ms, hash).ToString();
}

std::string SessionId(std::string_view repo, uint64_t number) {
  // One review session per pull request: sessionFatigue counts the reviews of this PR.
  return Identifier(GithubWorkId(repo, number));
}

// The artifact id is capped below 256 bytes with room for the number: OWNER/NAME is at most 140
// bytes on GitHub, a payload may say anything.
std::string WorkId(std::string_view repo, uint64_t number) {
  return Identifier(GithubWorkId(repo, number));
}

std::string Summary(const PullRequest& pr) {
  std::string s = pr.title.empty() ? fmt::format("pull request #{}", pr.number) : pr.title;
  if (!pr.body.empty()) s += "\n\n" + std::string(base::Utf8Prefix(pr.body, kTextBytes));
  if (pr.changed_files && pr.additions && pr.deletions) {
    s += fmt::format("\n\n{} files changed, +{} -{}", *pr.changed_files, *pr.additions,
                     *pr.deletions);
  }
  if (!pr.html_url.empty()) s += "\n" + std::string(base::Utf8Prefix(pr.html_url, kIdentBytes));
  return s;
}

// seed 000 WorkProductRef. GitHub does not say how sure the agent was, which prompt or model it
// used or how long it took: bubaConfidence is 0.5 (no information either way), the generation
// context reads "unknown" as `self_check` writes it, and iterationCount is the PR's commits.
// `commit`: the change under review as git names it (a work event's BASE...HEAD), "" for none.
void WriteWorkProduct(Writer& w, const PullRequest& pr, std::string_view version,
                      std::string_view commit = {}) {
  w.StartObject();
  model::Key(w, EventField::type);
  w.String("code-module");
  model::Key(w, EventField::id);
  base::Str(w, WorkId(pr.repo, pr.number));
  model::Key(w, EventField::version);
  Ident(w, version);
  model::Key(w, EventField::summary);
  base::Str(w, Summary(pr));
  model::Key(w, EventField::bubaConfidence);
  w.Double(0.5);
  model::Key(w, EventField::generationContext);
  w.StartObject();
  model::Key(w, EventField::promptHash);
  w.String("unknown");
  model::Key(w, EventField::memorySnapshot);
  w.StartArray();
  w.EndArray();
  model::Key(w, EventField::modelUsed);
  w.String("unknown");
  model::Key(w, EventField::generationTimeMs);
  w.Int(0);
  model::Key(w, EventField::iterationCount);
  w.Uint64(std::min<uint64_t>(pr.commits.value_or(0), 1'000'000'000));
  w.EndObject();
  if (!commit.empty()) {
    model::Key(w, EventField::commit);
    Ident(w, commit);
  }
  w.EndObject();
}

// The head of every feedback line, up to the decision.
void BeginFeedback(Writer& w, const std::string& id, int64_t at_ms, const std::string& modal_id,
                   std::string_view reviewer, const Target& t) {
  w.StartObject();
  model::Kind(w, model::EventKind::kFeedback);
  model::Key(w, EventField::id);
  base::Str(w, id);
  model::Key(w, EventField::timestamp);
  base::Str(w, model::FormatUtc(at_ms));
  model::Key(w, EventField::sessionId);
  base::Str(w, SessionId(t.repo, t.number));
  model::Key(w, EventField::modalId);
  Ident(w, modal_id);
  model::Key(w, EventField::pipelineStage);
  w.String("review");
  model::Key(w, EventField::reviewerId);
  Ident(w, reviewer);
  model::Key(w, EventField::repository);
  Ident(w, t.repo);
  model::Key(w, EventField::workProduct);
  if (t.pr != nullptr) {
    WriteWorkProduct(w, *t.pr, t.version);
  } else {
    w.StartObject();
    model::Key(w, EventField::id);
    base::Str(w, WorkId(t.repo, t.number));
    model::Key(w, EventField::version);
    Ident(w, t.version);
    w.EndObject();
  }
}

// seed 000 FeedbackMeta. GitHub does not say how long the reviewer looked; the closest it shows
// is how long the pull request waited for this review (0 when the payload has no pull request).
void WriteMeta(Writer& w, int64_t at_ms, const Target& t) {
  model::Key(w, EventField::meta);
  w.StartObject();
  model::Key(w, EventField::timeToDecisionMs);
  int64_t waited = 0;
  if (t.pr != nullptr && t.pr->created_ms && *t.pr->created_ms <= at_ms) {
    waited = at_ms - *t.pr->created_ms;
  }
  w.Int64(std::min(waited, kMaxDecisionMs));
  model::Key(w, EventField::presentationFormat);
  w.String("github-pull-request");
  w.EndObject();
}

std::string Label(std::string_view what, const Target& t) {
  return fmt::format("{} on {}@{}", what, WorkId(t.repo, t.number), t.version.substr(0, 12));
}

// How a line comment reads: GitHub's suggestion block proposes a change; a comment ending in a
// question mark asks; anything else on a line of an agent's change asks for something too, so
// it is a suggestion rather than a criticism (the sentiment of its text is computed at ingest).
const char* AnnotationType(std::string_view body) {
  if (body.find("```suggestion") != std::string_view::npos) return "suggestion";
  while (!body.empty() && (body.back() == ' ' || body.back() == '\n' || body.back() == '\r' ||
                           body.back() == '\t')) {
    body.remove_suffix(1);
  }
  return !body.empty() && body.back() == '?' ? "question" : "suggestion";
}

}  // namespace

GithubEvent WorkEvent(const PullRequest& pr, std::string_view agent, int64_t at_ms) {
  GithubEvent e;
  e.kind = model::EventKind::kWork;
  e.id = StableId(at_ms,
                  fmt::format("kaizen github\nwork\n{}\n{}\n{}", pr.repo, pr.number, pr.head_sha));
  rapidjson::StringBuffer b;
  Writer w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kWork);
  model::Key(w, EventField::id);
  base::Str(w, e.id);
  model::Key(w, EventField::timestamp);
  base::Str(w, model::FormatUtc(at_ms));
  model::Key(w, EventField::workProduct);
  // The pull request's change: from where its branch left the base to its head (three dots: the
  // merge base), so the review page never shows a later commit's or the base's own changes.
  const bool shas = !pr.base_sha.empty() && pr.base_sha.size() <= 64 && pr.head_sha.size() <= 64;
  WriteWorkProduct(w, pr, pr.head_sha, shas ? pr.base_sha + "..." + pr.head_sha : std::string());
  model::Key(w, EventField::sessionId);
  base::Str(w, SessionId(pr.repo, pr.number));
  model::Key(w, EventField::pipelineStage);
  w.String("review");
  model::Key(w, EventField::repository);
  Ident(w, pr.repo);
  w.EndObject();
  e.json = b.GetString();
  e.label =
      fmt::format("work {}@{} by {}", WorkId(pr.repo, pr.number), pr.head_sha.substr(0, 12), agent);
  return e;
}

GithubEvent MergeOutcomeEvent(const PullRequest& pr, std::string_view agent) {
  const int64_t at_ms = *pr.closed_ms;
  GithubEvent e;
  e.kind = model::EventKind::kReward;
  // A pull request may be closed, reopened and closed again: each close is its own outcome.
  e.id = StableId(at_ms, fmt::format("kaizen github\nclosed\n{}\n{}\n{}\n{}", pr.repo, pr.number,
                                     at_ms, pr.merged));
  const std::string work_id = WorkId(pr.repo, pr.number);
  rapidjson::StringBuffer b;
  Writer w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kReward);
  model::Key(w, EventField::id);
  base::Str(w, e.id);
  model::Key(w, EventField::timestamp);
  base::Str(w, model::FormatUtc(at_ms));
  model::Key(w, EventField::signal_id);
  Ident(w, work_id + (pr.merged ? ":merged" : ":closed"));
  // The learner links a reward to the work whose version is its commit, else whose id is its
  // task: both name the pull request's work here.
  model::Key(w, EventField::commit_hash);
  Ident(w, pr.head_sha);
  model::Key(w, EventField::task_id);
  base::Str(w, work_id);
  model::Key(w, EventField::signal_type);
  w.String("merge_outcome");
  model::Key(w, EventField::raw_value);
  w.String(pr.merged ? "merged" : "closed");
  model::Key(w, EventField::source);
  w.String("automatic");
  model::Key(w, EventField::confidence);
  w.Double(1.0);
  if (pr.created_ms && *pr.created_ms <= at_ms) {
    model::Key(w, EventField::delay_days);
    w.Int64(std::min((at_ms - *pr.created_ms) / kDayMs, kMaxDelayDays));
  }
  model::Key(w, EventField::context);
  w.StartObject();
  model::Key(w, EventField::source);
  w.String("github");
  model::Key(w, ContextField::repo);
  Ident(w, pr.repo);
  model::Key(w, ContextField::pull_request);
  w.Uint64(pr.number);
  model::Key(w, EventField::agent);
  Ident(w, agent);
  if (!pr.merge_commit_sha.empty() && pr.merged) {
    model::Key(w, ContextField::merge_commit);
    Ident(w, pr.merge_commit_sha);
  }
  if (!pr.html_url.empty()) {
    model::Key(w, ContextField::url);
    Ident(w, pr.html_url);
  }
  w.EndObject();
  w.EndObject();
  e.json = b.GetString();
  e.label = fmt::format("reward merge_outcome {} of {}", pr.merged ? "merged" : "closed", work_id);
  return e;
}

GithubEvent ReviewFeedbackEvent(const Review& review, const Target& target,
                                std::string_view decision) {
  const int64_t at_ms = *review.submitted_ms;
  GithubEvent e;
  e.kind = model::EventKind::kFeedback;
  e.id = StableId(at_ms, fmt::format("kaizen github\nreview\n{}\n{}", target.repo, review.id));
  rapidjson::StringBuffer b;
  Writer w(b);
  BeginFeedback(w, e.id, at_ms, fmt::format("github-review-{}", review.id), review.reviewer,
                target);
  if (!decision.empty()) {
    model::Key(w, EventField::decision);
    w.StartObject();
    model::Key(w, EventField::decision);
    base::Str(w, decision);
    w.EndObject();
  }
  if (!review.body.empty()) {
    model::Key(w, EventField::freeText);
    w.StartObject();
    model::Key(w, EventField::generalNotes);
    Text(w, review.body);
    w.EndObject();
  }
  WriteMeta(w, at_ms, target);
  w.EndObject();
  e.json = b.GetString();
  e.label = Label(fmt::format("feedback review {} ({}) by {}", review.id,
                              decision.empty() ? "comment" : decision, review.reviewer),
                  target);
  return e;
}

GithubEvent CommentFeedbackEvent(const ReviewComment& c, const Target& target) {
  GithubEvent e;
  e.kind = model::EventKind::kFeedback;
  e.id = StableId(c.created_ms, fmt::format("kaizen github\ncomment\n{}\n{}", target.repo, c.id));
  rapidjson::StringBuffer b;
  Writer w(b);
  BeginFeedback(w, e.id, c.created_ms, fmt::format("github-comment-{}", c.id), c.reviewer, target);
  model::Key(w, EventField::freeText);
  w.StartObject();
  model::Key(w, EventField::generalNotes);
  Text(w, c.body);
  w.EndObject();
  model::Key(w, EventField::annotations);
  w.StartArray();
  w.StartObject();
  model::Key(w, EventField::type);
  w.String(AnnotationType(c.body));
  model::Key(w, EventField::target);
  w.StartObject();
  model::Key(w, EventField::file);
  Text(w, c.path);
  // The lines in the commented version; an outdated comment (its lines gone from the head) has
  // only the lines of the version it was made on.
  const std::optional<uint64_t> end = c.line ? c.line : c.original_line;
  std::optional<uint64_t> start = c.line ? c.start_line : c.original_start_line;
  if (!start) start = end;
  if (end && *end <= kMaxLine && *start <= kMaxLine) {
    model::Key(w, EventField::lineStart);
    w.Uint64(std::min(*start, *end));
    model::Key(w, EventField::lineEnd);
    w.Uint64(std::max(*start, *end));
  }
  if (!c.diff_hunk.empty()) {
    model::Key(w, EventField::region);
    Text(w, c.diff_hunk);
  }
  w.EndObject();
  model::Key(w, EventField::text);
  Text(w, c.body);
  w.EndObject();
  w.EndArray();
  WriteMeta(w, c.created_ms, target);
  w.EndObject();
  e.json = b.GetString();
  e.label = Label(fmt::format("feedback comment {} by {} on {}", c.id, c.reviewer,
                              base::Utf8Prefix(c.path, kIdentBytes)),
                  target);
  return e;
}

}  // namespace kaizen::signals::github
