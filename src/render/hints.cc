#include "render/hints.h"

#include <fmt/format.h>

#include <cmath>

#include "model/timestamp.h"
#include "render/answer_lines.h"
#include "render/candidates.h"
#include "render/checklist.h"
#include "render/pattern_blocks.h"
#include "render/prompt_files.h"
#include "render/safe_text.h"
#include "render/signal_lines.h"
#include "render/told_lines.h"

namespace kaizen::render {
namespace {

constexpr size_t kMaxCandidates = 10;

bool IsDesignDomain(std::string_view domain) {
  return domain == "design-aesthetics" || domain == "design-ux";
}

// "error-handling" -> "Error handling", as the seed writes gate lines.
std::string DimensionSentence(std::string_view dimension) {
  std::string out(dimension);
  for (char& c : out) {
    if (c == '-' || c == '_') c = ' ';
  }
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

void AppendSection(std::string_view title, const std::string& lines, std::string* out) {
  if (lines.empty()) return;
  fmt::format_to(std::back_inserter(*out), "\n## {}\n{}", title, lines);
}

std::string StandardsLines(const std::vector<const learn::LearnedRule*>& active, bool design) {
  std::string lines;
  for (const learn::LearnedRule* rule : active) {
    if (IsDesignDomain(rule->domain) != design || rule->prompt_instruction.empty()) continue;
    fmt::format_to(std::back_inserter(lines), "- {}\n", rule->prompt_instruction);
  }
  return lines;
}

std::string GateLines(const HintsInput& in) {
  std::string lines;
  for (const learn::ScoreGate& g : in.gates) {
    if (g.kind == learn::GateKind::kHard) {
      fmt::format_to(std::back_inserter(lines), "- {} score must be ≥{} before submission\n",
                     DimensionSentence(g.dimension), g.threshold);
    } else {
      fmt::format_to(std::back_inserter(lines),
                     "- {} score should be ≥{} before submission (soft gate: {}% of scores below "
                     "it were not approved)\n",
                     DimensionSentence(g.dimension), g.threshold,
                     std::llround(100 * g.rejection_rate));
    }
  }
  // The seed's "predicted score" line: kaizen learns a calibration curve rather than a score cut,
  // so the line states §3.1's calibrated-confidence trigger once there is a curve to apply.
  if (in.calibration.n > 0) {
    fmt::format_to(std::back_inserter(lines),
                   "- Calibrated confidence must be ≥{}% or self-review is triggered\n",
                   std::llround(100 * kSelfReviewConfidence));
  }
  const learn::ScorePrediction& p = in.calibration.score_prediction;
  if (p.n > 0 && p.mean_delta && p.mean_abs_error && std::abs(*p.mean_delta) >= 0.05) {
    fmt::format_to(std::back_inserter(lines),
                   "- Reviewers score {:.1f} {} than predicted (mean over {} reviews, mean error "
                   "{:.1f}): adjust predicted scores before comparing them with these gates\n",
                   std::abs(*p.mean_delta), *p.mean_delta > 0 ? "higher" : "lower", p.n,
                   *p.mean_abs_error);
  }
  return lines;
}

std::string PresentationLines(const learn::CommunicationResult& c) {
  std::string lines;
  if (c.best_format) {
    auto it = c.formats.find(*c.best_format);
    if (it != c.formats.end()) {
      fmt::format_to(std::back_inserter(lines),
                     "- Present work as {}: it gets the fastest, most complete reviews "
                     "(effectiveness {:.2f} over {} reviews)\n",
                     QuoteReviewerText(*c.best_format), it->second.score, it->second.n);
    }
  }
  if (!c.best_windows.empty()) {
    std::string windows;
    for (const std::string& w : c.best_windows) {
      if (!windows.empty()) windows += " or ";
      windows += QuoteReviewerText(w);
    }
    fmt::format_to(std::back_inserter(lines),
                   "- Submit for review in the {} window: reviews are most engaged then\n",
                   windows);
  }
  // seed 000 §3.5 detail level: the summary's sections reviewers skip, and those they open.
  for (const learn::SectionStats& sec : c.detail_level) {
    if (sec.advice == "drop") {
      fmt::format_to(std::back_inserter(lines),
                     "- Summary section {}: read in {} of {} reviews that showed it; compress it "
                     "or leave it out\n",
                     QuoteReviewerText(sec.name), sec.read, sec.shown);
    } else if (sec.advice == "expand") {
      fmt::format_to(std::back_inserter(lines),
                     "- Summary section {}: reviewers opened it for more in {} of {} reviews; "
                     "put it first, in full\n",
                     QuoteReviewerText(sec.name), sec.expanded, sec.shown);
    }
  }
  return lines;
}

// The checklist and anti-pattern blocks carry their own "## " headings.
std::string WithoutHeading(const std::string& block) {
  if (block.empty()) return "";
  size_t body = block.find('\n');
  while (body + 1 < block.size() && block[body + 1] == '\n') ++body;
  return block.substr(body + 1);
}

}  // namespace

HintsInput HintsInputFrom(const learn::Learner& learner, int64_t now_ms, std::string_view project) {
  HintsInput in;
  in.now_ms = now_ms;
  in.communication = learner.communication().Result();
  // Every review lands in one presentation format ("unspecified" when none).
  for (const auto& [format, stats] : in.communication.formats) in.feedback_events += stats.n;
  in.rules = learner.Rules(now_ms);
  in.top_rejections = learner.RejectionPatterns(/*top=*/false);
  learn::KeepRejectionPatternsOf(project, in.rules,
                                 static_cast<size_t>(learner.config().rules.registry_size),
                                 &in.top_rejections);
  learn::KeepRulesOf(project, &in.rules);
  in.gates = learner.gates().Gates(now_ms);
  in.calibration = learner.calibration().Result();
  in.anti_patterns = learner.outcomes().AntiPatterns();
  in.after_review = SignalLines(learner.signals().Headline());
  in.told = ToldLines(learner.session_prompts(), project);
  in.answers = AnswerLines(learner.questions());
  for (const learn::LearnedRule* r : Candidates(in.rules, kMaxCandidates)) {
    in.candidates.push_back(CandidateLine(*r));
  }
  return in;
}

std::string HintsSection(const HintsInput& in) {
  const std::vector<const learn::LearnedRule*> active = ActiveRules(in.rules);
  std::string out = fmt::format("# Generated: {} | Based on {} feedback events | {} active rules\n",
                                model::FormatDay(in.now_ms), in.feedback_events, active.size());
  const size_t header = out.size();
  AppendSection("Code Standards (from reviewers' feedback)", StandardsLines(active, false), &out);
  AppendSection("Design Standards (from reviewers' feedback)", StandardsLines(active, true), &out);
  AppendSection("Quality Gates (auto-calibrated)", GateLines(in), &out);
  AppendSection("Review Presentation (optimized for reviewers)",
                PresentationLines(in.communication), &out);
  AppendSection("Pre-Review Checklist (from learned feedback)",
                WithoutHeading(PreReviewChecklist(in.top_rejections)), &out);
  AppendSection("Anti-Patterns to Avoid", WithoutHeading(AntiPatternBlock(in.anti_patterns)), &out);
  std::string candidates;
  for (const std::string& line : in.candidates) candidates += "- " + line + "\n";
  AppendSection("Candidates (repeated in reviews, not rules yet)", candidates, &out);
  std::string after;
  for (const std::string& line : in.after_review) after += "- " + line + "\n";
  AppendSection("After Review (git, CI, ratings)", after, &out);
  std::string told;
  for (const std::string& line : in.told) told += "- " + line + "\n";
  AppendSection("Told in Sessions (the person's words)", told, &out);
  std::string answers;
  for (const std::string& line : in.answers) answers += "- " + line + "\n";
  AppendSection("How People Like to Work (their answers to your questions)", answers, &out);
  if (out.size() == header) out += "\nNo learned rules yet.\n";
  return out;
}

std::string SpliceHints(std::string_view existing, std::string_view section) {
  size_t line_start = 0;
  while (line_start < existing.size()) {
    size_t line_end = existing.find('\n', line_start);
    const bool last = line_end == std::string_view::npos;
    if (last) line_end = existing.size();
    if (existing.substr(line_start, line_end - line_start).find(kHintsMarker) !=
        std::string_view::npos) {
      std::string out(existing.substr(0, line_end));
      out += '\n';
      out += section;
      return out;
    }
    line_start = line_end + 1;
  }
  // A blank line between the person's text and the marker, so the marker is not read as part
  // of their last paragraph (markdown joins adjacent lines).
  std::string out(existing);
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (!out.empty() && !out.ends_with("\n\n")) out += '\n';
  out += kHintsMarkerLine;
  out += '\n';
  out += section;
  return out;
}

}  // namespace kaizen::render
