#include "render/context.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/json_writer.h"
#include "learn/reviews/approval.h"
#include "model/project_key.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "render/answer_lines.h"
#include "render/candidates.h"
#include "render/safe_text.h"
#include "render/signal_lines.h"
#include "render/told_lines.h"

namespace kaizen::render {
namespace {

constexpr size_t kLabelBytes = 64;
constexpr size_t kMaxPreferenceReviewers = 3;  // the most active ones
constexpr size_t kMaxPatterns = 10;
constexpr size_t kMaxRegistry = 10;
constexpr size_t kMaxOutcomeAntiPatterns = 5;

std::string Label(std::string_view s) { return SanitizeReviewerText(s, kLabelBytes); }
std::string Pct(double x) { return fmt::format("{:.0f}%", x * 100); }

bool Contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Which of the query's fields a rule matches; nullopt when one rules it out.
std::optional<std::vector<std::string>> Matches(const learn::LearnedRule& r,
                                                const ContextQuery& q) {
  std::vector<std::string> on;
  if (!q.server_type.empty()) {
    if (Contains(r.applies_to, q.server_type)) {
      on.push_back("serverType");
    } else if (Contains(r.applies_to, "all")) {
      on.push_back("all");
    } else {
      return std::nullopt;
    }
  }
  if (!q.work_type.empty() && !r.work_types.empty()) {
    if (!Contains(r.work_types, q.work_type)) return std::nullopt;
    on.push_back("type");
  }
  if (!q.dimensions.empty() && !r.domain.empty()) {
    if (!Contains(q.dimensions, r.domain)) return std::nullopt;
    on.push_back("domain");
  }
  return on;
}

std::string PreferenceLine(const learn::ReviewerProfile& p) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < p.approves_quickly.size() && i < 2; ++i) {
    parts.push_back(fmt::format("approves {} quickly ({:.0f}s avg)",
                                Label(p.approves_quickly[i].task_type),
                                p.approves_quickly[i].avg_seconds));
  }
  for (size_t i = 0; i < p.deliberates_on.size() && i < 2; ++i) {
    parts.push_back(fmt::format("deliberates on {}", Label(p.deliberates_on[i].task_type)));
  }
  const learn::CommunicationResult& c = p.communication;
  if (c.best_format && *c.best_format != learn::kUnspecified) {
    parts.push_back(fmt::format("prefers {} presentation", Label(*c.best_format)));
  }
  if (!c.best_windows.empty()) {
    parts.push_back(fmt::format("best review time {}", Label(c.best_windows.front())));
  }
  for (size_t i = 0; i < p.criticized.size() && i < 3; ++i) {
    parts.push_back(
        fmt::format("rejects {} ({}x)", Label(p.criticized[i].theme), p.criticized[i].negative));
  }
  for (size_t i = 0; i < p.praised.size() && i < 3; ++i) {
    parts.push_back(
        fmt::format("praises {} ({}x)", Label(p.praised[i].theme), p.praised[i].positive));
  }
  std::string line = fmt::format(
      "{} ({} reviews, {} approved)",
      p.reviewer.empty() ? "(unnamed reviewer)" : QuoteReviewerText(p.reviewer, kLabelBytes),
      p.reviews, p.approved);
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : ": ") + parts[i];
  return line;
}

void Preferences(const learn::Learner& learner, ContextResult* out) {
  auto reviewers = learner.profiles().Reviewers();
  std::stable_sort(reviewers.begin(), reviewers.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (size_t i = 0; i < reviewers.size() && i < kMaxPreferenceReviewers; ++i) {
    if (auto p = learner.profiles().Profile(reviewers[i].first)) {
      out->preferences.push_back(PreferenceLine(*p));
    }
  }
  // What people said when the agent asked them how they like to work (seed 001 tier 3).
  for (std::string& line : AnswerLines(learner.questions())) {
    out->preferences.push_back(std::move(line));
  }
}

void Standards(const learn::Learner& learner, const ContextQuery& q, int64_t now_ms,
               ContextResult* out) {
  for (const learn::ScoreGate& g : learner.gates().Gates(now_ms)) {
    if (!q.dimensions.empty() && !Contains(q.dimensions, g.dimension)) continue;
    out->standards.push_back(
        fmt::format("{} must score {}+ ({} gate: {} of reviews below were "
                    "not approved, {} scores)",
                    Label(g.dimension), g.threshold, learn::GateKindName(g.kind),
                    Pct(g.rejection_rate), g.scores));
  }
  const learn::CalibrationResult cal = learner.calibration().Result();
  for (auto it = cal.buckets.rbegin(); it != cal.buckets.rend(); ++it) {
    if (static_cast<double>(it->n) < learner.config().calibration.min_bucket || !it->error ||
        !it->actual_rate || std::fabs(*it->error) < 0.05) {
      continue;
    }
    out->standards.push_back(fmt::format(
        "confidence {:.0f}-{:.0f}% raw is {} actual: apply {:+.0f}% (n={})", it->lower * 100,
        it->upper * 100, Pct(*it->actual_rate), -*it->error * 100, it->n));
  }
}

void Patterns(const std::vector<learn::LearnedRule>& rules, const ContextQuery& q,
              ContextResult* out) {
  for (const learn::LearnedRule& r : rules) {
    if (out->patterns.size() >= kMaxPatterns) break;
    if (r.status == learn::RuleStatus::kRetired) continue;
    std::optional<std::vector<std::string>> on = Matches(r, q);
    if (!on) continue;
    // A candidate is told as one, with its evidence: never in a rule's imperative words.
    out->patterns.push_back({Label(r.id), std::string(learn::RuleStatusName(r.status)),
                             r.status == learn::RuleStatus::kActive
                                 ? SanitizeReviewerText(r.prompt_instruction)
                                 : CandidateLine(r),
                             r.confidence, std::move(*on)});
  }
}

void Similar(const learn::Learner& learner, const ContextQuery& q, int64_t now_ms,
             ContextResult* out) {
  const learn::MemoryConfig& cfg = learner.config().memory;
  learn::SimilarityQuery sq{q.server_type, q.work_type, q.stage, q.dimensions};
  for (const learn::SimilarReview& s : learner.recent().Similar(
           sq, now_ms, static_cast<size_t>(cfg.similar_limit), cfg.min_similarity)) {
    const learn::KeptReview& r = *s.review;
    std::string words;
    if (!r.reason.empty()) words = QuoteReviewerText(r.reason);
    for (std::string_view b : r.blockers) {
      words += (words.empty() ? "" : "; ") + QuoteReviewerText(b, 120);
    }
    out->recent_similar.push_back({Label(r.id), model::FormatUtc(r.at_ms),
                                   r.reviewer.empty() ? "" : QuoteReviewerText(r.reviewer, 64),
                                   std::string(learn::DecisionWord(r.decision)),
                                   Label(r.server_type), Label(r.work_type), Label(r.stage),
                                   s.similarity, words});
  }
}

// `rules`: every rule (the registry keeps the project's and the global layer's themes).
void AntiPatterns(const learn::Learner& learner, const ContextQuery& q,
                  const std::vector<learn::LearnedRule>& rules, ContextResult* out) {
  size_t registry = 0;
  std::vector<learn::RejectionPattern> patterns = learner.RejectionPatterns(false);
  learn::KeepRejectionPatternsOf(q.project, rules, patterns.size(), &patterns);
  for (const learn::RejectionPattern& p : patterns) {
    if (registry >= kMaxRegistry) break;
    if (!q.server_type.empty() && !Contains(p.server_types, q.server_type)) continue;
    out->anti_patterns.push_back(
        {"rejection-pattern", SanitizeReviewerText(p.pattern), p.occurrences, std::nullopt});
    ++registry;
  }
  std::vector<learn::AntiPattern> outcome = learner.outcomes().AntiPatterns();
  std::stable_sort(
      outcome.begin(), outcome.end(), [](const learn::AntiPattern& a, const learn::AntiPattern& b) {
        return std::tie(b.failure_rate, a.pattern) < std::tie(a.failure_rate, b.pattern);
      });
  for (size_t i = 0; i < outcome.size() && i < kMaxOutcomeAntiPatterns; ++i) {
    out->anti_patterns.push_back({"outcome", SanitizeReviewerText(outcome[i].content),
                                  outcome[i].success_count + outcome[i].failure_count,
                                  outcome[i].failure_rate});
  }
}

}  // namespace

Status ParseDimensions(std::string_view csv, std::vector<std::string>* out) {
  out->clear();
  const auto& valid = model::QualityDimensions();
  size_t start = 0;
  while (start <= csv.size()) {
    size_t comma = csv.find(',', start);
    if (comma == std::string_view::npos) comma = csv.size();
    std::string_view name = csv.substr(start, comma - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      std::string list;
      for (std::string_view v : valid) list += (list.empty() ? "" : ", ") + std::string(v);
      return InvalidArgument(
          fmt::format("--dimensions: {:?} is not a quality dimension (one of: {})",
                      SanitizeReviewerText(name, kLabelBytes), list));
    }
    if (!Contains(*out, name)) out->emplace_back(name);
    start = comma + 1;
  }
  return Status::Ok();
}

ContextResult Context(const learn::Learner& learner, const ContextQuery& query, int64_t now_ms) {
  ContextResult out;
  out.query = {Label(query.server_type),
               Label(query.work_type),
               Label(query.stage),
               {},
               Label(model::ProjectKey(query.project))};
  for (const std::string& d : query.dimensions) out.query.dimensions.push_back(Label(d));
  out.now_ms = now_ms;
  Preferences(learner, &out);
  Standards(learner, query, now_ms, &out);
  const std::vector<learn::LearnedRule> all_rules = learner.Rules(now_ms);
  std::vector<learn::LearnedRule> rules = all_rules;
  learn::KeepRulesOf(query.project, &rules);
  Patterns(rules, query, &out);
  Similar(learner, query, now_ms, &out);
  AntiPatterns(learner, query, all_rules, &out);
  out.after_review = SignalLines(learner.signals().Headline());
  out.told = ToldLines(learner.session_prompts(), query.project);
  return out;
}

std::string ContextMarkdown(const ContextResult& r) {
  std::string what;
  for (const std::string* part : {&r.query.server_type, &r.query.work_type, &r.query.stage}) {
    if (!part->empty()) what += (what.empty() ? "" : " / ") + *part;
  }
  std::string out = fmt::format("# Context for {}", what.empty() ? "any task" : what);
  if (!r.query.dimensions.empty()) {
    std::string dims;
    for (const std::string& d : r.query.dimensions) dims += (dims.empty() ? "" : ", ") + d;
    out += " (dimensions: " + dims + ")";
  }
  out += fmt::format("\n> As of {}", model::FormatUtc(r.now_ms));
  if (r.budget_tokens > 0) out += fmt::format(" | budget {} tokens", r.budget_tokens);
  if (!r.trimmed.empty()) {
    out += " | trimmed:";
    for (const auto& [section, n] : r.trimmed) out += fmt::format(" {} {}", section, n);
  }
  out += "\n";
  auto section = [&](std::string_view title, size_t n, auto&& line) {
    out += fmt::format("\n## {}\n", title);
    if (n == 0) out += "- None.\n";
    for (size_t i = 0; i < n; ++i) out += "- " + line(i) + "\n";
  };
  section("Reviewer Preferences", r.preferences.size(), [&](size_t i) { return r.preferences[i]; });
  section("Quality Standards", r.standards.size(), [&](size_t i) { return r.standards[i]; });
  section("Matching Patterns", r.patterns.size(), [&](size_t i) {
    const ContextPattern& p = r.patterns[i];
    std::string on;
    for (const std::string& m : p.matched_on) on += (on.empty() ? "" : ", ") + m;
    return fmt::format("{} ({}, {}, confidence {}{})", p.instruction, p.id, p.status,
                       Pct(p.confidence), on.empty() ? "" : "; matched on " + on);
  });
  section("Recent Similar Reviews", r.recent_similar.size(), [&](size_t i) {
    const ContextReview& v = r.recent_similar[i];
    std::string line =
        fmt::format("{} **{}** (similarity {:.2f})", v.at.substr(0, 10), v.decision, v.similarity);
    if (!v.reviewer.empty()) line += " by " + v.reviewer;
    if (!v.words.empty()) line += ": " + v.words;
    return line;
  });
  section("Anti-Patterns (avoid)", r.anti_patterns.size(), [&](size_t i) {
    const ContextAntiPattern& a = r.anti_patterns[i];
    return a.failure_rate ? fmt::format("{} ({}, {} observations)", a.text, a.source, a.occurrences)
                          : fmt::format("{} ({}, {} rejections)", a.text, a.source, a.occurrences);
  });
  section("After Review (git, CI, ratings)", r.after_review.size(),
          [&](size_t i) { return r.after_review[i]; });
  if (!r.told.empty()) {
    section("Told in Sessions (the person's words)", r.told.size(),
            [&](size_t i) { return r.told[i]; });
  }
  return out;
}

std::string ContextJson(const ContextResult& r) {
  using base::Key;
  using base::Num;
  using base::Str;
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  w.StartObject();
  base::Key(w, "now");
  base::Str(w, model::FormatUtc(r.now_ms));
  base::Key(w, "query");
  w.StartObject();
  base::Key(w, "serverType");
  base::Str(w, r.query.server_type);
  base::Key(w, "type");
  base::Str(w, r.query.work_type);
  base::Key(w, "stage");
  base::Str(w, r.query.stage);
  base::Key(w, "dimensions");
  base::StrArray(w, r.query.dimensions);
  base::Key(w, "project");
  base::Str(w, r.query.project);
  w.EndObject();
  auto strings = [&](std::string_view key, const std::vector<std::string>& v) {
    base::Key(w, key);
    base::StrArray(w, v);
  };
  strings("preferences", r.preferences);
  strings("standards", r.standards);
  base::Key(w, "patterns");
  w.StartArray();
  for (const ContextPattern& p : r.patterns) {
    w.StartObject();
    base::Key(w, "id");
    base::Str(w, p.id);
    base::Key(w, "status");
    base::Str(w, p.status);
    base::Key(w, "instruction");
    base::Str(w, p.instruction);
    base::Key(w, "confidence");
    base::Num(w, p.confidence);
    strings("matchedOn", p.matched_on);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "recentSimilar");
  w.StartArray();
  for (const ContextReview& v : r.recent_similar) {
    w.StartObject();
    for (auto [key, value] : {std::pair<std::string_view, const std::string*>{"id", &v.id},
                              {"at", &v.at},
                              {"reviewer", &v.reviewer},
                              {"decision", &v.decision},
                              {"serverType", &v.server_type},
                              {"type", &v.work_type},
                              {"stage", &v.stage},
                              {"words", &v.words}}) {
      base::Key(w, key);
      base::Str(w, *value);
    }
    base::Key(w, "similarity");
    base::Num(w, v.similarity);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "antiPatterns");
  w.StartArray();
  for (const ContextAntiPattern& a : r.anti_patterns) {
    w.StartObject();
    base::Key(w, "source");
    base::Str(w, a.source);
    base::Key(w, "text");
    base::Str(w, a.text);
    base::Key(w, "occurrences");
    w.Int64(a.occurrences);
    base::Key(w, "failureRate");
    base::Num(w, a.failure_rate);
    w.EndObject();
  }
  w.EndArray();
  strings("afterReview", r.after_review);
  strings("told", r.told);
  base::Key(w, "budgetTokens");
  w.Uint64(r.budget_tokens);
  base::Key(w, "trimmed");
  w.StartObject();
  for (const auto& [section, n] : r.trimmed) {
    base::Key(w, section);
    w.Uint64(n);
  }
  w.EndObject();
  w.EndObject();
  std::string out(buffer.GetString(), buffer.GetSize());
  out.push_back('\n');
  return out;
}

std::string RenderContext(ContextResult* r, ContextFormat format, size_t budget_tokens) {
  r->budget_tokens = budget_tokens;
  auto render = [&] {
    return format == ContextFormat::kJson ? ContextJson(*r) : ContextMarkdown(*r);
  };
  std::string text = render();
  // Each pass drops items worth about the overshoot (their strings' bytes plus a line's
  // overhead), then renders again: a handful of renders whatever the sizes.
  while (EstimateTokens(text.size()) > budget_tokens) {
    size_t over = text.size() - budget_tokens * 4;
    size_t dropped = 0;
    auto drop = [&](std::string_view key, auto& v, auto&& size) {
      while (!v.empty() && dropped < over) {
        dropped += size(v.back()) + 24;
        v.pop_back();
        ++r->trimmed[std::string(key)];
      }
    };
    drop("recentSimilar", r->recent_similar, [](const ContextReview& v) {
      return v.id.size() + v.at.size() + v.reviewer.size() + v.words.size() + 80;
    });
    drop("preferences", r->preferences, [](const std::string& s) { return s.size(); });
    drop("standards", r->standards, [](const std::string& s) { return s.size(); });
    drop("patterns", r->patterns,
         [](const ContextPattern& p) { return p.id.size() + p.instruction.size() + 40; });
    drop("afterReview", r->after_review, [](const std::string& s) { return s.size(); });
    drop("told", r->told, [](const std::string& s) { return s.size(); });
    drop("antiPatterns", r->anti_patterns,
         [](const ContextAntiPattern& a) { return a.text.size() + 40; });
    if (dropped == 0) break;  // nothing left to leave out
    text = render();
  }
  return text;
}

}  // namespace kaizen::render
