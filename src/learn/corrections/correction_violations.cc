// seed 004 WARDEN: the detectors of the learned correction patterns (see correction_patterns.h),
// used by `kaizen validate` and by the learner's self-consistency check.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_set>

#include "base/utf8.h"
#include "learn/corrections/correction_patterns.h"
#include "text/ascii_case.h"
#include "text/code_correction.h"
#include "text/correction_classifier.h"
#include "text/filler.h"

namespace kaizen::learn {
namespace {

using text::Token;

constexpr int64_t kMinLineWordsLimit = 5;  // never flag lines of 5 words or fewer as too long

// A text split once for every detector; `code[i]` when line i is code (in a ``` fence, or the
// whole text is code).
struct Lines {
  Lines(std::string_view text, bool all_code) : lines(text::SplitLines(text)) {
    tokens.reserve(lines.size());
    code.reserve(lines.size());
    bool fenced = false;
    for (std::string_view l : lines) {
      const size_t indent = std::min(l.size(), l.find_first_not_of(" \t"));
      const bool fence = l.substr(indent).starts_with("```");
      code.push_back(all_code || fenced || fence);
      if (fence) fenced = !fenced;
      tokens.push_back(code.back() ? std::vector<text::Token>() : text::Tokenize(l));
      std::string h = code.back() ? std::string() : text::HeadingOf(l);
      if (!h.empty()) headings.insert(std::move(h));
    }
  }
  size_t ColumnOf(size_t line, std::string_view part) const {
    return static_cast<size_t>(part.data() - lines[line].data());
  }
  std::vector<std::string_view> lines;
  std::vector<std::vector<text::Token>> tokens;  // empty for a code line: the prose kinds skip it
  std::vector<bool> code;
  std::set<std::string> headings;
};

bool HasNumber(const std::vector<text::Token>& tokens) {
  return std::any_of(tokens.begin(), tokens.end(), [](const text::Token& t) { return t.number; });
}

std::string Shown(std::string_view s) { return std::string(base::Utf8Prefix(s, 60)); }

void Detect(const CorrectionPattern& p, const Lines& text, std::vector<PatternViolation>* out) {
  const auto& lines = text.lines;
  const auto& tokens = text.tokens;
  auto flag = [&](size_t line, size_t column, std::string what) {
    out->push_back({line + 1, column + 1, p.id, std::move(what)});
  };
  switch (p.kind) {
    case CorrectionPatternKind::kOpener:
      for (size_t i = 0; i < lines.size(); ++i) {
        if (text.code[i]) continue;
        // "Was responsible for" also goes against a "responsible for" pattern.
        const std::string_view opener = text::PassiveOpener(lines[i]);
        if (opener.empty() ||
            (opener != p.key && !(opener.size() > p.key.size() && opener.ends_with(" " + p.key)))) {
          continue;
        }
        const size_t at = text::OpenerOffset(lines[i]);
        flag(i, at, fmt::format("passive opener '{}'", lines[i].substr(at, opener.size())));
      }
      break;
    case CorrectionPatternKind::kJargon: {
      std::unordered_set<std::string> words;
      for (const WordCount& w : p.words) words.insert(w.word);
      for (size_t i = 0; i < lines.size(); ++i) {
        for (const text::Token& t : tokens[i]) {
          if (t.text.size() <= 40 && words.contains(text::ToLowerAscii(t.text))) {
            flag(i, text.ColumnOf(i, t.text), fmt::format("jargon '{}'", t.text));
          }
        }
      }
      break;
    }
    case CorrectionPatternKind::kMetric: {
      std::unordered_set<std::string> vague;
      for (const WordCount& w : p.words) vague.insert(w.word);
      for (size_t i = 0; i < lines.size(); ++i) {
        if (HasNumber(tokens[i])) continue;
        for (const text::Token& t : tokens[i]) {
          const bool is_vague = vague.empty() ? !text::VagueWord(t.text).empty()
                                              : vague.contains(text::ToLowerAscii(t.text));
          if (t.text.size() <= 40 && is_vague) {
            flag(i, text.ColumnOf(i, t.text), fmt::format("vague '{}' without a number", t.text));
            break;  // one per line
          }
        }
      }
      break;
    }
    case CorrectionPatternKind::kLength: {
      const size_t limit =
          static_cast<size_t>(std::max<int64_t>(kMinLineWordsLimit, p.max_line_words));
      for (size_t i = 0; i < lines.size(); ++i) {
        if (tokens[i].size() > limit) {
          flag(i, text.ColumnOf(i, tokens[i].front().text),
               fmt::format("{} words, longer than the {} the corrections kept", tokens[i].size(),
                           limit));
        }
      }
      break;
    }
    case CorrectionPatternKind::kSection:
      if (!text.headings.empty() && !text.headings.contains(p.key)) {
        flag(0, 0, fmt::format("missing section '{}'", p.key));
      }
      break;
    case CorrectionPatternKind::kPhrase:
      for (const WordCount& w : p.words) {
        std::vector<text::Token> phrase = text::Tokenize(w.word);
        if (phrase.empty()) continue;
        for (size_t i = 0; i < lines.size(); ++i) {
          const std::vector<text::Token>& t = tokens[i];
          for (size_t k = 0; k + phrase.size() <= t.size(); ++k) {
            bool match = true;
            for (size_t m = 0; m < phrase.size() && match; ++m) {
              match = text::EqualsIgnoreCase(t[k + m].text, phrase[m].text);
            }
            if (match) {
              flag(i, text.ColumnOf(i, t[k].text),
                   fmt::format("'{}', removed by {} corrections", w.word, w.count));
            }
          }
        }
      }
      break;
    case CorrectionPatternKind::kFiller: {
      // The phrases people removed and the rest of their families: a person who deletes
      // "Great question!" would delete "Certainly!" too; an ordinary sentence is never listed.
      std::set<text::FillerFamily> families;
      for (const WordCount& w : p.words) {
        text::FillerFamily f;
        if (text::FillerFamilyOf(w.word, &f)) families.insert(f);
      }
      for (size_t i = 0; i < lines.size(); ++i) {
        if (text.code[i]) continue;
        for (const text::FillerMatch& m : text::FindFiller(lines[i])) {
          if (!families.contains(m.family)) continue;
          flag(i, m.begin,
               fmt::format("filler '{}'", Shown(lines[i].substr(m.begin, m.end - m.begin))));
        }
      }
      break;
    }
    case CorrectionPatternKind::kUnsafeType: {
      std::set<std::string, std::less<>> markers;
      for (const WordCount& w : p.words) markers.insert(w.word);
      if (markers.empty()) markers.insert(p.key);
      for (size_t i = 0; i < lines.size(); ++i) {
        for (const text::UnsafeTypeMarker& m : text::FindUnsafeTypeMarkers(lines[i])) {
          if (!markers.contains(m.marker)) continue;
          flag(i, m.offset,
               fmt::format("unsafe type '{}'", Shown(lines[i].substr(m.offset, m.length))));
        }
      }
      break;
    }
    case CorrectionPatternKind::kRename:
    case CorrectionPatternKind::kCode:
      break;  // advisory: no detector
  }
}

}  // namespace

std::vector<PatternViolation> ViolationsOf(const CorrectionPattern& pattern,
                                           std::string_view text) {
  std::vector<PatternViolation> out;
  Detect(pattern, Lines(text, false), &out);
  return out;
}

std::vector<PatternViolation> FindViolations(const std::vector<CorrectionPattern>& patterns,
                                             std::string_view text, double min_confidence,
                                             std::string_view file) {
  const Lines lines(text, text::IsCodeFile(file).value_or(false));
  std::vector<PatternViolation> out;
  for (const CorrectionPattern& p : patterns) {
    if (p.Enforced(min_confidence)) Detect(p, lines, &out);
  }
  std::sort(out.begin(), out.end(), [](const PatternViolation& a, const PatternViolation& b) {
    return std::tie(a.line, a.column, a.pattern_id, a.what) <
           std::tie(b.line, b.column, b.pattern_id, b.what);
  });
  return out;
}

}  // namespace kaizen::learn
