// Reviewer text is untrusted: a comment may try to pose as a heading, a system prompt, a code block
// or a link an agent might follow. We work on code points so that every rule below is one linear
// pass, whatever the input (a 10 KB comment costs a few passes over 10 KB, never a rescan loop).
#include "render/safe_text.h"

#include <cstdint>
#include <string>
#include <vector>

#include "base/utf8.h"

namespace kaizen::render {
namespace {

using CodePoints = std::u32string;

// Decodes UTF-8, dropping every byte that is not part of a well-formed sequence (overlong forms,
// surrogates and values above U+10FFFF count as malformed).
CodePoints DecodeDroppingInvalid(std::string_view text) {
  CodePoints out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto b0 = static_cast<uint8_t>(text[i]);
    if (b0 < 0x80) {
      out.push_back(b0);
      ++i;
      continue;
    }
    size_t len = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if ((b0 & 0xE0) == 0xC0) {
      len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
      ++i;  // stray continuation byte or 0xF8..0xFF
      continue;
    }
    bool ok = i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) {
      const auto b = static_cast<uint8_t>(text[i + k]);
      if ((b & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (!ok || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      ++i;  // drop the lead byte only; the rest is rescanned and dropped or kept on its own
      continue;
    }
    out.push_back(cp);
    i += len;
  }
  return out;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool IsLineBreak(char32_t c) {
  return c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0x85 || c == 0x2028 ||
         c == 0x2029;
}

// Characters that are invisible but reorder or hide text (bidi controls) or are control codes.
bool IsControlOrBidi(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E ||
         c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

// Zero-width characters join or split words invisibly; they are dropped rather than spaced.
bool IsZeroWidth(char32_t c) { return (c >= 0x200B && c <= 0x200D) || c == 0x2060 || c == 0xFEFF; }

bool IsSpace(char32_t c) {
  return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

bool IsAsciiAlpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char32_t c) { return c >= '0' && c <= '9'; }
// Letters outside ASCII count as word characters, so "naïve_name" keeps its underscore.
bool IsWordChar(char32_t c) { return IsAsciiAlpha(c) || IsDigit(c) || c >= 0x80; }

// Line breaks become '\n' (kept until the block pass), other controls a space, zero-width
// characters nothing.
CodePoints NormalizeControls(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  for (char32_t c : in) {
    if (IsLineBreak(c)) {
      out.push_back('\n');
    } else if (IsZeroWidth(c)) {
      continue;
    } else if (IsControlOrBidi(c) || IsSpace(c)) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool IsTagStart(char32_t c) { return IsAsciiAlpha(c) || c == '/' || c == '!' || c == '?'; }

// Drops HTML comments and tags. A '<' that could still open a tag afterwards (an unclosed "<b",
// or one made by the removal, "<<b>b>") is dropped too; the right-to-left pass sees the final
// next character, so no "<letter" survives.
CodePoints DropHtml(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  size_t next_gt = 0;  // the first '>' after the current position, or npos when none is left
  for (size_t i = 0; i < in.size();) {
    if (in[i] == '<' && in.compare(i, 4, U"<!--") == 0) {
      const size_t end = in.find(U"-->", i + 4);
      i = end == CodePoints::npos ? in.size() : end + 3;  // an unclosed comment hides the rest
      continue;
    }
    if (in[i] == '<' && i + 1 < in.size() && IsTagStart(in[i + 1])) {
      // The next '>' is cached: rescanning from every '<' would be quadratic on "<a<a<a...".
      if (next_gt != CodePoints::npos && next_gt <= i) next_gt = in.find('>', i + 1);
      const size_t end = next_gt;
      if (end != CodePoints::npos) {
        i = end + 1;
        continue;
      }
    }
    out.push_back(in[i++]);
  }
  CodePoints reversed;
  reversed.reserve(out.size());
  for (size_t i = out.size(); i-- > 0;) {
    if (out[i] == '<' && (reversed.empty() || IsTagStart(reversed.back()))) continue;
    reversed.push_back(out[i]);
  }
  return CodePoints(reversed.rbegin(), reversed.rend());
}

// "[text](target)" and "![alt](target)" keep only their text: the target is where an injected
// link would lead an agent ("javascript:", a look-alike URL).
CodePoints DropLinkTargets(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  size_t next_paren = 0;  // the first ')' or line break after the current link, or npos
  for (size_t i = 0; i < in.size();) {
    const bool image = in[i] == '!' && i + 1 < in.size() && in[i + 1] == '[';
    const size_t open = image ? i + 1 : i;
    if (in[open] == '[') {
      const size_t close = in.find_first_of(U"[]\n", open + 1);
      if (close != CodePoints::npos && in[close] == ']' && close + 1 < in.size() &&
          in[close + 1] == '(') {
        // Cached like DropHtml's '>': "[a](" repeated must not rescan the rest each time.
        if (next_paren != CodePoints::npos && next_paren <= close + 1) {
          next_paren = in.find_first_of(U")\n", close + 2);
        }
        const size_t paren = next_paren;
        if (paren != CodePoints::npos && in[paren] == ')') {
          out.append(in, open + 1, close - open - 1);
          i = paren + 1;
          continue;
        }
      }
    }
    out.push_back(in[i++]);
  }
  return out;
}

// Backticks and fences (``` and ~~~), emphasis asterisks and strike-through tildes go; an
// underscore goes only where it could be emphasis, not inside a word like "snake_case".
CodePoints DropInlineMarkup(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char32_t c = in[i];
    if (c == '`' || c == '*' || c == '~') continue;
    if (c == '_') {
      const bool inside_word =
          i > 0 && i + 1 < in.size() && IsWordChar(in[i - 1]) && IsWordChar(in[i + 1]);
      if (!inside_word) continue;
    }
    out.push_back(c);
  }
  return out;
}

// Length of the block marker at `line[pos]` ("#", ">", "- ", "+ ", "1. ", "2) "), or 0.
size_t BlockMarkerLength(const CodePoints& line, size_t pos) {
  const char32_t c = line[pos];
  if (c == '#' || c == '>' || c == '|') return 1;
  const bool followed_by_space = pos + 1 >= line.size() || line[pos + 1] == ' ';
  if ((c == '-' || c == '+' || c == '=') && followed_by_space) return 1;
  size_t digits = 0;
  while (pos + digits < line.size() && IsDigit(line[pos + digits]) && digits < 10) ++digits;
  if (digits > 0 && digits < 10 && pos + digits < line.size() &&
      (line[pos + digits] == '.' || line[pos + digits] == ')') &&
      (pos + digits + 1 >= line.size() || line[pos + digits + 1] == ' ')) {
    return digits + 1;
  }
  return 0;
}

// Strips headings, block quotes, table pipes and list markers from the start of a line, as many
// as are stacked ("> # 1. text" gives "text"). A rule line ("---", "===") vanishes entirely.
CodePoints StripBlockMarkers(const CodePoints& line) {
  size_t pos = 0;
  while (pos < line.size()) {
    if (line[pos] == ' ') {
      ++pos;
      continue;
    }
    const size_t n = BlockMarkerLength(line, pos);
    if (n == 0) break;
    pos += n;
  }
  CodePoints rest = line.substr(pos);
  bool only_rule_chars = true;
  for (char32_t c : rest) {
    if (c != '-' && c != '=' && c != '_' && c != ' ') only_rule_chars = false;
  }
  if (only_rule_chars) return {};
  return rest;
}

// Joins the lines with single spaces, collapsing runs of whitespace and trimming both ends.
CodePoints JoinCollapsed(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  size_t start = 0;
  while (start <= in.size()) {
    size_t end = in.find('\n', start);
    if (end == CodePoints::npos) end = in.size();
    for (char32_t c : StripBlockMarkers(in.substr(start, end - start))) {
      if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
      out.push_back(c);
    }
    if (!out.empty() && out.back() != ' ') out.push_back(' ');
    start = end + 1;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string Encode(const CodePoints& in) {
  std::string out;
  out.reserve(in.size());
  for (char32_t c : in) AppendUtf8(c, &out);
  return out;
}

// Cuts `text` (valid UTF-8) to at most `max_bytes` bytes including the "…" (3 bytes) that marks
// the cut, on a code point boundary.
std::string CutToBytes(std::string text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  static constexpr std::string_view kEllipsis = "…";
  const bool room_for_ellipsis = max_bytes >= kEllipsis.size();
  text.resize(
      base::Utf8Prefix(text, room_for_ellipsis ? max_bytes - kEllipsis.size() : max_bytes).size());
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (room_for_ellipsis) text.append(kEllipsis);
  return text;
}

bool IsQuoteChar(char32_t c) {
  return c == '"' || c == 0x201C || c == 0x201D || c == 0x201E || c == 0x201F || c == 0xAB ||
         c == 0xBB || c == 0xFF02 || c == 0x2033 || c == 0x301D || c == 0x301E;
}

}  // namespace

std::string SanitizeReviewerText(std::string_view text, size_t max_bytes) {
  CodePoints cps = NormalizeControls(DecodeDroppingInvalid(text));
  cps = DropInlineMarkup(DropLinkTargets(DropHtml(cps)));
  // Joining already strips each line's leading markers; stripping the joined result again catches
  // markers that only surfaced once inline markup around them was removed ("**# x**").
  cps = StripBlockMarkers(JoinCollapsed(cps));
  return CutToBytes(Encode(cps), max_bytes);
}

std::string QuoteReviewerText(std::string_view text, size_t max_bytes) {
  const std::string clean = SanitizeReviewerText(text, max_bytes);
  if (clean.empty()) return "";
  CodePoints cps = DecodeDroppingInvalid(clean);
  for (char32_t& c : cps) {
    if (IsQuoteChar(c)) c = '\'';
  }
  return "“" + Encode(cps) + "”";
}

}  // namespace kaizen::render
