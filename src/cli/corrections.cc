// seed 004 WARDEN and MNEMIS at the command line:
//   `kaizen validate FILE [--json] [--min-confidence X] [--now T|end]` flags text in FILE that
//   violates the learned correction patterns confident (or approved) enough to enforce, and prints
//   the hints a retry prompt should carry ("IMPORTANT: ..."). Exit 1 when it flags something, 0
//   when clean, 2 on a usage error (bad flag, unreadable FILE).
//   `kaizen corrections [--json] [--now T|end]`: the learned patterns with their evidence.
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "base/json_writer.h"
#include "checks/output_validation.h"
#include "cli/verbs.h"
#include "home/input.h"
#include "home/learned_state.h"
#include "learn/corrections/correction_patterns.h"
#include "model/timestamp.h"
#include "render/correction_patterns.h"
#include "render/safe_text.h"

namespace kaizen::cli {
namespace {

std::string Day(int64_t ms) { return model::FormatUtc(ms).substr(0, 10); }

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) {
    out += (out.empty() ? "" : ", ") + render::SanitizeReviewerText(s, 64);
  }
  return out.empty() ? "-" : out;
}

std::string ValidationJson(const std::string& file, double min_confidence,
                           const checks::OutputValidation& v) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "file");
  base::Str(w, file);
  WriteJsonMembers(w, min_confidence, v);
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

int ValidateCommand(const Common& c, const std::string& file, std::optional<double> min_conf) {
  Result<simdjson::padded_string> read = home::ReadInput(file);
  if (!read.ok()) {
    fmt::print(stderr, "kaizen validate: FILE '{}': {}\n", file, read.status().message());
    return kExitUsage;
  }
  const std::string_view text(read->data(), read->size());
  if (text.size() > checks::kMaxValidatedBytes) {
    fmt::print(stderr, "kaizen validate: FILE '{}' is {} bytes; at most {} bytes are validated\n",
               file, text.size(), checks::kMaxValidatedBytes);
    return kExitUsage;
  }
  home::LearnedState state;
  // Only the correction patterns learn: the other rules' events are counted, not read.
  if (Status s = home::LoadLearnedState(c, &state, nullptr, {learn::Part::kCorrections}); !s.ok()) {
    return home::FailVerb("validate", s);
  }
  home::WarnUnreadable(state.scan);
  const learn::CorrectionPatternLearner& learned = state.learner->corrections();
  const double threshold = min_conf.value_or(learned.config().enforce_min_confidence);
  const checks::OutputValidation v = checks::ValidateOutput(*state.learner, text, threshold, file);
  const std::string shown = file == "-" ? "(stdin)" : file;
  fmt::print("{}", c.json ? ValidationJson(shown, threshold, v)
                          : OutputValidationText(shown, threshold, learned.Patterns().size(), v));
  return v.violations.empty() ? kExitOk : kExitRejected;
}

std::string CorrectionsText(const learn::CorrectionPatternLearner& learned, int64_t now_ms) {
  const std::vector<learn::CorrectionPattern> patterns = learned.Patterns();
  const learn::CorrectionPatternConfig& config = learned.config();
  std::string out = fmt::format(
      "Correction patterns as of {}: {} correction(s), {} pattern(s)\n"
      "  a pattern forms at {}+ similar corrections; enforced at confidence >= {:.2f} or {}+ "
      "approvals\n",
      Day(now_ms), learned.corrections(), patterns.size(), config.min_instances,
      config.enforce_min_confidence, config.promote_approvals);
  for (const learn::CorrectionPattern& p : patterns) {
    out += fmt::format("\n{} [{}] confidence {:.2f}\n", p.id, learn::StatusName(p.status),
                       p.confidence);
    out += fmt::format("  rule: {}\n", render::CorrectionRule(p));
    if (!p.inconsistency.empty()) {
      out += fmt::format("  not enforced: {}\n", p.inconsistency);
    } else if (!p.enforceable) {
      out += "  advisory: `kaizen validate` has no check for this kind; not enforced\n";
    }
    out += fmt::format("  {} correction(s), {} against (consistency {:.2f}), {} .. {}\n",
                       p.occurrences, p.against, p.consistency, Day(p.first_ms), Day(p.last_ms));
    out +=
        fmt::format("  applicable to: {}; users: {}\n", Joined(p.applicable_to), Joined(p.users));
    out += fmt::format(
        "  approvals {}, rejections {}; people confirming {}, rejecting {}: consensus {}\n",
        p.approved_by.size(), p.rejected_by.size(), p.users_confirmed.size(),
        p.users_rejected.size(),
        p.consensus ? fmt::format("{:.2f}", *p.consensus) : std::string("-"));
    for (const learn::CorrectionExample& e : p.examples) {
      out += fmt::format("  example: {} -> {}\n", render::QuoteReviewerText(e.original),
                         render::QuoteReviewerText(e.corrected));
    }
  }
  return out;
}

}  // namespace

Verb AddValidateVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "validate", "flag text that violates learned correction patterns; print retry hints");
  auto file = std::make_shared<std::string>();
  auto min_conf = std::make_shared<double>(-1);
  sub->add_option("FILE", *file, "the text to check; - for standard input")->required();
  sub->add_option("--min-confidence", *min_conf,
                  "enforce patterns at or above this confidence, 0..1 (default: the learning "
                  "config's corrections.enforce_min_confidence, 0.5)")
      ->check(CLI::Range(0.0, 1.0))
      ->check(NotNan());
  AddCommonOptions(sub, c, true, true);
  return {sub, [&c, file, min_conf] {
            return ValidateCommand(c, *file,
                                   *min_conf < 0 ? std::nullopt : std::optional(*min_conf));
          }};
}

Verb AddCorrectionsVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "corrections", "the patterns learned from corrections, with their evidence and audits");
  AddCommonOptions(sub, c, true, true);
  return {sub, [&c] {
            home::LearnedState state;
            if (Status s = home::LoadLearnedState(c, &state, nullptr, {learn::Part::kCorrections});
                !s.ok()) {
              return home::FailVerb("corrections", s);
            }
            home::WarnUnreadable(state.scan);
            const learn::CorrectionPatternLearner& learned = state.learner->corrections();
            fmt::print("{}", c.json ? render::CorrectionsJson(learned, state.now_ms)
                                    : CorrectionsText(learned, state.now_ms));
            return kExitOk;
          }};
}

}  // namespace kaizen::cli
