#include "render/correction_patterns.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/json_writer.h"
#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

using learn::CorrectionPattern;
using learn::CorrectionPatternKind;

constexpr size_t kMaxLearnedWordBytes = 60;
constexpr size_t kWordsInRule = 5;

// A learned word or phrase, safe to put between single quotes in a rule.
std::string Word(std::string_view learned) {
  std::string s = SanitizeReviewerText(learned, kMaxLearnedWordBytes);
  std::erase(s, '\'');  // the rule quotes it in '...'
  return s;
}

std::string Capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

// "'a', 'b', 'c'" from the most frequent learned words; filler phrases as sentences start
// ("'Great question', 'I hope this helps'").
std::string QuotedWords(const CorrectionPattern& p) {
  std::string out;
  for (size_t i = 0; i < p.words.size() && i < kWordsInRule; ++i) {
    if (!out.empty()) out += ", ";
    std::string w = Word(p.words[i].word);
    if (p.kind == CorrectionPatternKind::kFiller) w = Capitalized(std::move(w));
    out += "'" + w + "'";
  }
  return out;
}

size_t LineLimit(const CorrectionPattern& p) {
  return static_cast<size_t>(std::max<int64_t>(5, p.max_line_words));
}

// The rule of an advisory code pattern: what its type says people keep fixing.
std::string CodeRule(std::string_view type) {
  if (type == "error_handling") return "Handle errors: catch, check or return them";
  if (type == "null_handling") return "Check for null or undefined before using a value";
  if (type == "dead_code") return "Remove code that is not used";
  if (type == "type_safety") return "Keep code type-safe: precise types, no casts to silence it";
  if (type == "naming") return "Name identifiers as reviewers rename them";
  return fmt::format("Code corrections of type '{}' recur; review code for them", Word(type));
}

std::string Fixed2(double x) { return fmt::format("{:.2f}", x); }

void YamlList(std::string_view key, const std::vector<std::string>& items, std::string* out) {
  *out += key;
  *out += ": [";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += YamlQuoted(SanitizeReviewerText(items[i], kMaxLearnedWordBytes));
  }
  *out += "]\n";
}

}  // namespace

std::string YamlQuoted(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

std::string CorrectionRule(const CorrectionPattern& p) {
  switch (p.kind) {
    case CorrectionPatternKind::kOpener: {
      const std::string opener = Capitalized(Word(p.key));
      if (p.verb.empty()) {
        return fmt::format("Replace passive constructions ('{} X') with active verbs", opener);
      }
      return fmt::format("Replace passive constructions ('{} X') with active verbs ('{} X')",
                         opener, Capitalized(Word(p.verb)));
    }
    case CorrectionPatternKind::kJargon:
      return fmt::format("Avoid jargon ({}): use plain words", QuotedWords(p));
    case CorrectionPatternKind::kSection:
      return fmt::format("Include a '{}' section", Capitalized(Word(p.key)));
    case CorrectionPatternKind::kMetric:
      if (p.words.empty()) return "Back claims with concrete metrics (numbers, percentages)";
      return fmt::format("Use concrete metrics (numbers, percentages) instead of vague words ({})",
                         QuotedWords(p));
    case CorrectionPatternKind::kLength:
      return fmt::format(
          "Keep each line to {} words or fewer (corrections cut text to {:.0f}% of "
          "its length)",
          LineLimit(p), p.length_ratio * 100);
    case CorrectionPatternKind::kPhrase:
      if (p.words.empty()) {
        return fmt::format("Corrections of type '{}' recur; review output for them",
                           Word(p.correction_type));
      }
      return fmt::format("Avoid the phrases people keep removing: {}", QuotedWords(p));
    case CorrectionPatternKind::kFiller:
      return fmt::format(
          "Drop filler and pleasantries ({}): start with the answer, end when it "
          "ends",
          QuotedWords(p));
    case CorrectionPatternKind::kUnsafeType:
      return fmt::format("Keep code type-safe: no {} (use precise types, `unknown` and narrowing)",
                         QuotedWords(p));
    case CorrectionPatternKind::kRename:
      return fmt::format("Name things as reviewers rename them: {}", QuotedWords(p));
    case CorrectionPatternKind::kCode:
      return CodeRule(p.correction_type);
  }
  return {};
}

std::string CorrectionHint(const CorrectionPattern& p) {
  switch (p.kind) {
    case CorrectionPatternKind::kOpener: {
      const std::string verb = p.verb.empty() ? "Led" : Capitalized(Word(p.verb));
      return fmt::format("Use active voice: start with an action verb ('{} X'), not '{} X'.", verb,
                         Capitalized(Word(p.key)));
    }
    case CorrectionPatternKind::kJargon:
      return fmt::format("Avoid jargon: use plain words instead of {}.", QuotedWords(p));
    case CorrectionPatternKind::kSection:
      return fmt::format("Include a '{}' section.", Capitalized(Word(p.key)));
    case CorrectionPatternKind::kMetric:
      return "Replace vague claims with concrete numbers (counts, percentages, time saved).";
    case CorrectionPatternKind::kLength:
      return fmt::format("Be concise: keep each line to {} words or fewer.", LineLimit(p));
    case CorrectionPatternKind::kPhrase:
      return fmt::format("Do not write {}.",
                         p.words.empty() ? "what people keep correcting" : QuotedWords(p));
    case CorrectionPatternKind::kFiller:
      return fmt::format("Drop filler and pleasantries such as {}: start with the answer.",
                         QuotedWords(p));
    case CorrectionPatternKind::kUnsafeType:
      return fmt::format("Do not use {} in code: use precise types or `unknown` and narrow it.",
                         QuotedWords(p));
    case CorrectionPatternKind::kRename:
      return fmt::format("Use the names reviewers chose: {}.", QuotedWords(p));
    case CorrectionPatternKind::kCode:
      return CodeRule(p.correction_type) + ".";
  }
  return {};
}

std::string CorrectionPatternYaml(const CorrectionPattern& p) {
  std::string projects;
  for (const std::string& project : p.applicable_to) {
    if (!projects.empty()) projects += ", ";
    projects += SanitizeReviewerText(project, kMaxLearnedWordBytes);
  }
  const std::string source =
      fmt::format("{} corrections ({})", projects.empty() ? "all projects" : projects,
                  model::FormatUtc(p.first_ms).substr(0, 10));
  std::string out;
  out += "# A correction pattern kaizen learned (seed 004); rewritten by `kaizen render`.\n";
  out +=
      "# Approve or reject it: kaizen record admin with {\"action\":\"rule_audit\",\"rule_id\":\"";
  out += p.id;
  out += "\",\"verdict\":\"confirm\"|\"retire\",\"reviewerId\":...}\n";
  out += "pattern_id: " + YamlQuoted(p.id) + "\n";
  out += "source: " + YamlQuoted(source) + "\n";
  out += "rule: " + YamlQuoted(CorrectionRule(p)) + "\n";
  out += fmt::format("confidence: {}  # based on {} corrections\n", Fixed2(p.confidence),
                     p.occurrences);
  YamlList("applicable_to", p.applicable_to, &out);
  out += "correction_type: " + YamlQuoted(SanitizeReviewerText(p.correction_type, 256)) + "\n";
  out += "kind: " + std::string(learn::KindName(p.kind)) + "\n";
  out += "hint: " + YamlQuoted(CorrectionHint(p)) + "\n";
  out += fmt::format("occurrences: {}\n", p.occurrences);
  out += fmt::format("against: {}  # corrections that went the other way\n", p.against);
  out += fmt::format("consistency: {}\n", Fixed2(p.consistency));
  YamlList("users", p.users, &out);
  out += fmt::format("approvals: {}\n", p.approved_by.size());
  out += fmt::format("rejections: {}\n", p.rejected_by.size());
  out += "consensus_score: " + (p.consensus ? Fixed2(*p.consensus) : std::string("null")) + "\n";
  out += "status: " + std::string(learn::StatusName(p.status)) + "\n";
  out += fmt::format("enforceable: {}  # kaizen validate has a check for this kind\n",
                     p.enforceable ? "true" : "false");
  if (!p.inconsistency.empty()) out += "inconsistency: " + YamlQuoted(p.inconsistency) + "\n";
  out += "first_seen: " + YamlQuoted(model::FormatUtc(p.first_ms)) + "\n";
  out += "last_seen: " + YamlQuoted(model::FormatUtc(p.last_ms)) + "\n";
  if (p.examples.empty()) {
    out += "examples: []\n";
  } else {
    out += "examples:\n";
    for (const learn::CorrectionExample& e : p.examples) {
      out += "  - original: " + YamlQuoted(QuoteReviewerText(e.original)) + "\n";
      out += "    corrected: " + YamlQuoted(QuoteReviewerText(e.corrected)) + "\n";
    }
  }
  return out;
}

std::vector<RenderedFile> CorrectionPatternFiles(const learn::Learner& learner,
                                                 int64_t /*now_ms*/) {
  std::vector<RenderedFile> files;
  for (const CorrectionPattern& p : learner.corrections().Patterns()) {
    files.push_back({std::string(kLearnedPatternsDir) + p.id + ".yaml", CorrectionPatternYaml(p)});
  }
  std::sort(files.begin(), files.end(),
            [](const RenderedFile& a, const RenderedFile& b) { return a.path < b.path; });
  return files;
}

std::string CorrectionsJson(const learn::CorrectionPatternLearner& learned, int64_t now_ms) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "now");
  base::Str(w, model::FormatUtc(now_ms));
  base::Key(w, "corrections");
  w.Int64(learned.corrections());
  base::Key(w, "min_instances");
  base::Num(w, learned.config().min_instances);
  base::Key(w, "enforce_min_confidence");
  base::Num(w, learned.config().enforce_min_confidence);
  base::Key(w, "promote_approvals");
  base::Num(w, learned.config().promote_approvals);
  base::Key(w, "patterns");
  w.StartArray();
  for (const learn::CorrectionPattern& p : learned.Patterns()) {
    w.StartObject();
    learn::WriteJsonFields(w, p);
    // The rule and hint as the pattern file and `kaizen validate` word them.
    base::Key(w, "rule");
    base::Str(w, CorrectionRule(p));
    base::Key(w, "hint");
    base::Str(w, CorrectionHint(p));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

}  // namespace kaizen::render
