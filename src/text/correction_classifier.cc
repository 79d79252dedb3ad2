#include "text/correction_classifier.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <unordered_map>
#include <utility>

#include "text/ascii_case.h"
#include "text/code_correction.h"
#include "text/filler.h"

namespace kaizen::text {
namespace {

using Ids = std::vector<uint32_t>;
using Match = std::pair<size_t, size_t>;

bool IsAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsWordByte(unsigned char c) { return IsAlnum(c) || c >= 0x80; }
bool IsListed(std::span<const std::string_view> list, std::string_view word) {
  for (std::string_view w : list) {
    if (EqualsIgnoreCase(w, word)) return true;
  }
  return false;
}
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}
std::string_view Trim(std::string_view s) {
  s = TrimLeft(s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool IsBulletLine(std::string_view line) { return BulletMarkerLength(TrimLeft(line)) > 0; }

std::vector<std::string_view> NonEmptyLines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view l : SplitLines(text)) {
    l = Trim(l);
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

// ---- the diff -------------------------------------------------------------------------------

// Row of LCS lengths of a[a0, a1) against every prefix (forward) or suffix (backward) of b[b0, b1):
// row[k] = LCS(a-part, b[b0, b0 + k)) forward, LCS(a-part, b[b0 + k, b1)) backward.
void LcsRow(const Ids& a, size_t a0, size_t a1, const Ids& b, size_t b0, size_t b1, bool backward,
            std::vector<uint32_t>* row, std::vector<uint32_t>* scratch) {
  const size_t m = b1 - b0;
  row->assign(m + 1, 0);
  scratch->assign(m + 1, 0);
  std::vector<uint32_t>& prev = *row;
  std::vector<uint32_t>& cur = *scratch;
  for (size_t step = 0; step < a1 - a0; ++step) {
    const uint32_t x = backward ? a[a1 - 1 - step] : a[a0 + step];
    if (!backward) {
      cur[0] = 0;
      for (size_t j = 1; j <= m; ++j) {
        cur[j] = x == b[b0 + j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
      }
    } else {
      cur[m] = 0;
      for (size_t j = m; j-- > 0;) {
        cur[j] = x == b[b0 + j] ? prev[j + 1] + 1 : std::max(prev[j], cur[j + 1]);
      }
    }
    std::swap(prev, cur);
  }
}

// Hirschberg: the matched index pairs of one LCS, in order; memory linear in b's length.
void Lcs(const Ids& a, size_t a0, size_t a1, const Ids& b, size_t b0, size_t b1,
         std::vector<Match>* out) {
  while (a0 < a1 && b0 < b1 && a[a0] == b[b0]) out->push_back({a0++, b0++});
  size_t suffix = 0;
  while (a1 > a0 && b1 > b0 && a[a1 - 1] == b[b1 - 1]) {
    --a1;
    --b1;
    ++suffix;
  }
  if (a0 < a1 && b0 < b1) {
    if (a1 - a0 == 1) {
      for (size_t j = b0; j < b1; ++j) {
        if (b[j] == a[a0]) {
          out->push_back({a0, j});
          break;
        }
      }
    } else if (b1 - b0 == 1) {
      for (size_t i = a0; i < a1; ++i) {
        if (a[i] == b[b0]) {
          out->push_back({i, b0});
          break;
        }
      }
    } else {
      const size_t mid = a0 + (a1 - a0) / 2;
      std::vector<uint32_t> front, back, scratch;
      LcsRow(a, a0, mid, b, b0, b1, false, &front, &scratch);
      LcsRow(a, mid, a1, b, b0, b1, true, &back, &scratch);
      size_t best = 0;
      uint32_t best_len = 0;
      for (size_t k = 0; k <= b1 - b0; ++k) {
        if (front[k] + back[k] > best_len) {
          best_len = front[k] + back[k];
          best = k;
        }
      }
      front = {};
      back = {};
      Lcs(a, a0, mid, b, b0, b0 + best, out);
      Lcs(a, mid, a1, b, b0 + best, b1, out);
    }
  }
  for (size_t t = 0; t < suffix; ++t) out->push_back({a1 + t, b1 + t});
}

// ---- classification -------------------------------------------------------------------------

std::string Quote(std::string_view s) { return fmt::format("'{}'", s.substr(0, 60)); }

std::string Joined(const std::vector<Token>& tokens, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end && out.size() < 60; ++i) {
    if (!out.empty()) out += ' ';
    out += tokens[i].text;
  }
  return out;
}

bool SameWords(const TokenDiff& d) {
  if (d.original.size() != d.corrected.size()) return false;
  for (size_t i = 0; i < d.original.size(); ++i) {
    if (!EqualsIgnoreCase(d.original[i].text, d.corrected[i].text)) return false;
  }
  return true;
}

size_t CountBullets(std::string_view text) {
  size_t n = 0;
  for (std::string_view l : SplitLines(text)) n += IsBulletLine(l) ? 1 : 0;
  return n;
}

std::vector<std::string> Headings(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view l : SplitLines(text)) {
    std::string h = HeadingOf(l);
    if (!h.empty()) out.push_back(std::move(h));
  }
  return out;
}

// "was built by": a form of "to be", a participle, then "by" within three tokens.
bool HasBePassive(const std::vector<Token>& t) {
  static constexpr std::string_view kBe[] = {"was", "were", "is", "are", "been", "being"};
  for (size_t i = 0; i + 2 < t.size(); ++i) {
    if (!IsListed(kBe, t[i].text)) continue;
    std::string_view p = t[i + 1].text;
    if (!(p.ends_with("ed") || p.ends_with("en"))) continue;
    for (size_t j = i + 2; j < t.size() && j <= i + 4; ++j) {
      if (EqualsIgnoreCase(t[j].text, "by")) return true;
    }
  }
  return false;
}

std::vector<std::string_view> OpenersOf(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view l : SplitLines(text)) {
    std::string_view o = PassiveOpener(l);
    if (!o.empty()) out.push_back(o);
  }
  return out;
}

// The first listed filler phrase `original` has more of than `corrected`, or empty.
std::string_view RemovedFiller(std::string_view original, std::string_view corrected) {
  const std::vector<FillerMatch> before = FindFiller(original), after = FindFiller(corrected);
  for (const FillerMatch& m : before) {
    auto count = [&](const std::vector<FillerMatch>& all) {
      return std::count_if(all.begin(), all.end(),
                           [&](const FillerMatch& x) { return x.phrase == m.phrase; });
    };
    if (count(before) > count(after)) return m.phrase;
  }
  return {};
}

}  // namespace

size_t BulletMarkerLength(std::string_view s) {
  if (s.size() >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ') return 2;
  if (s.starts_with("\xE2\x80\xA2")) return s.size() > 3 && s[3] == ' ' ? 4 : 3;
  size_t i = 0;
  while (i < s.size() && i < 4 && IsDigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i > 0 && i + 1 < s.size() && (s[i] == '.' || s[i] == ')') && s[i + 1] == ' ') return i + 2;
  return 0;
}

size_t OpenerOffset(std::string_view line) {
  size_t lead = line.size() - TrimLeft(line).size();
  return lead + BulletMarkerLength(line.substr(lead));
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (line.ends_with('\r')) line.remove_suffix(1);
    out.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::vector<Token> Tokenize(std::string_view text) {
  text = text.substr(0, kMaxClassifiedBytes);
  std::vector<Token> out;
  uint32_t line = 0;
  bool boundary = true;
  bool line_start = true;  // only whitespace so far on this line
  size_t i = 0;
  while (i < text.size() && out.size() < kMaxDiffTokens) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      boundary = line_start = true;
      ++i;
      continue;
    }
    if (line_start && c != ' ' && c != '\t') {
      line_start = false;
      size_t marker = BulletMarkerLength(text.substr(i));
      if (marker > 0) {
        i += marker;
        continue;
      }
    }
    const bool dollar = c == '$' && i + 1 < text.size() && IsDigit(text[i + 1]);
    if (!IsWordByte(c) && !dollar) {
      if (c == '.' || c == '!' || c == '?' || c == ':') boundary = true;
      ++i;
      continue;
    }
    const size_t begin = i;
    const bool number = dollar || IsDigit(c);
    ++i;
    while (i < text.size()) {
      const auto x = static_cast<unsigned char>(text[i]);
      const bool next_word = i + 1 < text.size() && IsWordByte(text[i + 1]);
      if (IsWordByte(x)) {
        ++i;
      } else if ((x == '-' || x == '\'' || x == '_') && next_word) {
        ++i;
      } else if ((x == '.' || x == ',') && number && i + 1 < text.size() && IsDigit(text[i + 1])) {
        ++i;
      } else if (x == '%' && number) {
        ++i;
      } else {
        break;
      }
    }
    Token t;
    t.text = text.substr(begin, i - begin);
    t.line = line;
    t.number = number;
    t.capitalized = c >= 'A' && c <= 'Z';
    t.sentence_start = boundary;
    boundary = false;
    out.push_back(t);
  }
  return out;
}

TokenDiff DiffTokens(std::string_view original, std::string_view corrected) {
  TokenDiff d;
  d.original = Tokenize(original);
  d.corrected = Tokenize(corrected);
  // Tokens compare ignoring ASCII case: "The" after a removed "Hi team," is the same word. The
  // keys view the texts (no lowered copy per token).
  std::unordered_map<std::string_view, uint32_t, CaseInsensitiveHash, CaseInsensitiveEqual> ids;
  ids.reserve(d.original.size() + d.corrected.size());
  auto intern = [&](const std::vector<Token>& tokens) {
    Ids out;
    out.reserve(tokens.size());
    for (const Token& t : tokens) {
      out.push_back(ids.emplace(t.text, static_cast<uint32_t>(ids.size())).first->second);
    }
    return out;
  };
  const Ids a = intern(d.original), b = intern(d.corrected);
  std::vector<Match> matches;
  Lcs(a, 0, a.size(), b, 0, b.size(), &matches);
  d.kept = matches.size();
  matches.push_back({a.size(), b.size()});  // sentinel: closes a trailing hunk
  size_t i = 0, j = 0;
  for (const auto& [mi, mj] : matches) {
    if (mi > i || mj > j) d.hunks.push_back({i, mi, j, mj});
    i = mi + 1;
    j = mj + 1;
  }
  return d;
}

// The rules, their order and confidences (seed 004 names the types, not how to detect them; these
// are kaizen's choices, strongest evidence first). Code goes to ClassifyCodeCorrection after the
// first two rules.
//   formatting        0.95  the same words (ignoring case); only whitespace/markdown/punctuation
//   bullet_structure  0.85  the same words, a different number of bullet lines
//   section_order     0.90  the same lines (or >= 2 headings) in a different order
//   missing_section   0.85  a heading added while >= 80% of the original's words are kept
//   passive_to_active 0.90  a passive opener removed and the line starts with an action verb;
//                     0.75  opener removed otherwise; 0.70 "was X-ed by" removed
//   factual_error     0.85  a number replaced by a number, or a proper name by a proper name
//   tone_mismatch     0.85  a filler or pleasantry sentence removed ("Great question!", filler.h)
//   metric_vague      0.85  numbers added, none removed (0.90 when a vague word went too)
//   jargon_overuse    0.85  a listed jargon word removed and not kept elsewhere
//   tone_mismatch     0.75  a formal/informal marker or a contraction removed or added
//   excessive_detail  0.60 + 0.30 * min(1, (1 - kept ratio) / 0.5): <= 80% of the words remain,
//                           few added
//   missing_detail    0.75  >= 120% (and >= 3 more) words, >= 70% of the original kept
//   fallback          0.30  shorter: excessive_detail; longer: missing_detail;
//                     0.25  same length: tone_mismatch (reworded)
CorrectionClass ClassifyCorrection(std::string_view original, std::string_view corrected,
                                   std::string_view file) {
  const TokenDiff d = DiffTokens(original, corrected);
  const size_t ow = d.original.size(), cw = d.corrected.size();
  CorrectionClass out;
  auto result = [&](std::string_view type, double confidence) {
    out.type = type;
    out.confidence = confidence;
    return out;
  };

  if (SameWords(d)) {
    const size_t bo = CountBullets(original), bc = CountBullets(corrected);
    if (bo != bc) {
      out.reasons.push_back(fmt::format("the same words; bullet lines {} -> {}", bo, bc));
      return result("bullet_structure", 0.85);
    }
    out.reasons.push_back("the same words; only whitespace, markdown, punctuation or case changed");
    return result("formatting", 0.95);
  }
  if (IsCodeCorrection(original, corrected, file) || NarrowsAnyType(d)) {
    return ClassifyCodeCorrection(d, original, corrected);
  }

  const std::vector<std::string_view> lo = NonEmptyLines(original), lc = NonEmptyLines(corrected);
  {
    auto so = lo, sc = lc;
    std::sort(so.begin(), so.end());
    std::sort(sc.begin(), sc.end());
    if (lo.size() >= 2 && so == sc) {
      out.reasons.push_back(fmt::format("the same {} lines in a different order", lo.size()));
      return result("section_order", 0.90);
    }
  }
  const std::vector<std::string> ho = Headings(original), hc = Headings(corrected);
  {
    auto so = ho, sc = hc;
    std::sort(so.begin(), so.end());
    std::sort(sc.begin(), sc.end());
    if (ho.size() >= 2 && so == sc && ho != hc) {
      out.reasons.push_back(fmt::format("the same {} headings in a different order", ho.size()));
      return result("section_order", 0.90);
    }
    std::vector<std::string> added;
    std::set_difference(sc.begin(), sc.end(), so.begin(), so.end(), std::back_inserter(added));
    if (!added.empty() && ow > 0 && static_cast<double>(d.kept) >= 0.8 * static_cast<double>(ow)) {
      out.reasons.push_back(fmt::format("added the section heading {}", Quote(added.front())));
      return result("missing_section", 0.85);
    }
  }

  {
    const std::vector<std::string_view> oo = OpenersOf(original), oc = OpenersOf(corrected);
    if (oo.size() > oc.size()) {
      out.reasons.push_back(fmt::format("removed the passive opener {}", Quote(oo.front())));
      // The first word of the first corrected line that replaced an opener line.
      std::string_view verb;
      for (size_t k = 0; k < lo.size(); ++k) {
        if (PassiveOpener(lo[k]).empty()) continue;
        std::vector<Token> t = Tokenize(k < lc.size() ? lc[k] : corrected);
        if (!t.empty()) verb = t.front().text;
        break;
      }
      if (IsActionVerb(verb)) {
        out.reasons.push_back(fmt::format("starts with the action verb {}", Quote(verb)));
        return result("passive_to_active", 0.90);
      }
      return result("passive_to_active", 0.75);
    }
    if (HasBePassive(d.original) && !HasBePassive(d.corrected)) {
      out.reasons.push_back("removed a passive construction (\"was ... by\")");
      return result("passive_to_active", 0.70);
    }
  }

  size_t numbers_removed = 0, numbers_added = 0;
  std::vector<std::string_view> vague_removed, jargon_removed, tone_changed;
  for (const DiffHunk& h : d.hunks) {
    std::string_view old_number, new_number, old_name, new_name;
    for (size_t k = h.orig_begin; k < h.orig_end; ++k) {
      const Token& t = d.original[k];
      if (t.number) {
        ++numbers_removed;
        if (old_number.empty()) old_number = t.text;
      } else if (t.capitalized && !t.sentence_start && old_name.empty()) {
        old_name = t.text;
      }
      if (std::string_view v = VagueWord(t.text); !v.empty()) vague_removed.push_back(v);
      if (std::string_view j = JargonWord(t.text); !j.empty()) jargon_removed.push_back(j);
      if (std::string_view f = FormalityMarker(t.text); !f.empty()) tone_changed.push_back(f);
    }
    for (size_t k = h.corr_begin; k < h.corr_end; ++k) {
      const Token& t = d.corrected[k];
      if (t.number) {
        ++numbers_added;
        if (new_number.empty()) new_number = t.text;
      } else if (t.capitalized && !t.sentence_start && new_name.empty()) {
        new_name = t.text;
      }
      if (std::string_view f = FormalityMarker(t.text); !f.empty()) tone_changed.push_back(f);
    }
    if (out.type.empty() && !old_number.empty() && !new_number.empty()) {
      out.reasons.push_back(
          fmt::format("replaced the number {} with {}", Quote(old_number), Quote(new_number)));
      out.type = "factual_error";
    } else if (out.type.empty() && !old_name.empty() && !new_name.empty()) {
      out.reasons.push_back(
          fmt::format("replaced the name {} with {}", Quote(old_name), Quote(new_name)));
      out.type = "factual_error";
    }
  }
  if (!out.type.empty()) return result("factual_error", 0.85);

  if (std::string_view filler = RemovedFiller(original, corrected); !filler.empty()) {
    out.reasons.push_back(fmt::format("removed the pleasantry {}", Quote(filler)));
    return result("tone_mismatch", 0.85);
  }

  if (numbers_added > 0 && numbers_removed == 0) {
    out.reasons.push_back(fmt::format("added {} number(s)", numbers_added));
    if (!vague_removed.empty()) {
      out.reasons.push_back(fmt::format("removed the vague {}", Quote(vague_removed.front())));
      return result("metric_vague", 0.90);
    }
    return result("metric_vague", 0.85);
  }

  // A jargon word counts as replaced only when the corrected text no longer uses it.
  std::erase_if(jargon_removed, [&](std::string_view j) {
    return std::any_of(d.corrected.begin(), d.corrected.end(),
                       [&](const Token& t) { return EqualsIgnoreCase(t.text, j); });
  });
  if (!jargon_removed.empty()) {
    out.reasons.push_back(fmt::format("replaced the jargon {}", Quote(jargon_removed.front())));
    return result("jargon_overuse", 0.85);
  }
  if (!tone_changed.empty()) {
    out.reasons.push_back(fmt::format("changed the register: {}", Quote(tone_changed.front())));
    return result("tone_mismatch", 0.75);
  }

  size_t added = 0, removed = 0;
  for (const DiffHunk& h : d.hunks) {
    added += h.corr_end - h.corr_begin;
    removed += h.orig_end - h.orig_begin;
  }
  const double ratio = ow == 0 ? 1.0 : static_cast<double>(cw) / static_cast<double>(ow);
  if (ow > 0 && ratio <= 0.8 && static_cast<double>(added) <= std::max(2.0, 0.25 * removed)) {
    out.reasons.push_back(
        fmt::format("trimmed to {:.0f}% of the words ({} -> {})", ratio * 100, ow, cw));
    return result("excessive_detail", 0.60 + 0.30 * std::min(1.0, (1 - ratio) / 0.5));
  }
  if (cw >= ow + 3 && ratio >= 1.2 && static_cast<double>(d.kept) >= 0.7 * ow) {
    out.reasons.push_back(
        fmt::format("added {} words of specifics, kept {} of {}", cw - d.kept, d.kept, ow));
    return result("missing_detail", 0.75);
  }
  if (cw < ow) {
    out.reasons.push_back(fmt::format("shorter ({} -> {} words); no specific signal", ow, cw));
    return result("excessive_detail", 0.30);
  }
  if (cw > ow) {
    out.reasons.push_back(fmt::format("longer ({} -> {} words); no specific signal", ow, cw));
    return result("missing_detail", 0.30);
  }
  out.reasons.push_back(fmt::format("reworded ({} -> {}); no specific signal",
                                    Quote(Joined(d.original, 0, ow)),
                                    Quote(Joined(d.corrected, 0, cw))));
  return result("tone_mismatch", 0.25);
}

std::string HeadingOf(std::string_view line) {
  std::string_view s = Trim(line);
  if (s.starts_with('#')) {
    while (s.starts_with('#')) s.remove_prefix(1);
    if (!s.empty() && s.front() != ' ') return {};  // "#hashtag", not a heading
  } else if (s.size() > 4 && s.starts_with("**") && s.ends_with("**")) {
    s = s.substr(2, s.size() - 4);
  } else {
    return {};
  }
  std::string out;
  for (const Token& t : Tokenize(s.substr(0, 200))) {
    if (!out.empty()) out += ' ';
    out += ToLowerAscii(t.text);
  }
  return out;
}

}  // namespace kaizen::text
