#include "agents/toml_text.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cstdint>

namespace kaizen::agents {
namespace {

// A control character TOML 1.0 permits nowhere, not even in a comment or a string (where it must
// be escaped): all but tab, line feed and carriage return, and DEL.
bool ForbiddenControl(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f;
}

bool Ascii(char c) { return static_cast<unsigned char>(c) < 0x80; }

// The UTF-8 sequence at t[i] (valid: the text was checked) as a TOML escape; advances i past it.
std::string Escaped(std::string_view t, size_t* i) {
  const auto lead = static_cast<unsigned char>(t[*i]);
  const int n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  uint32_t cp = lead & (0xff >> (n + 1));
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(t[*i + k]) & 0x3f);
  *i += n;
  return cp > 0xffff ? fmt::format("\\U{:08X}", cp) : fmt::format("\\u{:04X}", cp);
}

struct Unsafe {
  size_t at = std::string_view::npos;
  std::string why;
};

// The document as toml++ 3.3.0 can read it safely, the same TOML in ASCII: every non-ASCII
// character of a string escaped (a literal string becomes the basic string of the same value),
// those of comments replaced by '?'. toml++ 3.3.0 reaches undefined behaviour on some invalid
// documents holding a non-ASCII character (found by fuzzing); in ASCII it reads them as errors.
// *unsafe names what is refused first, each invalid TOML 1.0: text that is not UTF-8, a control
// character TOML forbids anywhere, a non-ASCII character outside strings and comments, a quote
// where no string can begin (after a value, say), a string that does not end, or an escape of a
// non-ASCII character.
std::string AsciiToml(std::string_view t, Unsafe* unsafe) {
  if (!simdjson::validate_utf8(t.data(), t.size())) {
    size_t ok = 0;  // the longest valid prefix: where the first bad byte is
    while (ok < t.size() && simdjson::validate_utf8(t.data(), ok + 1)) ++ok;
    while (ok < t.size() && !Ascii(t[ok]) && (static_cast<unsigned char>(t[ok]) & 0xc0) == 0x80)
      --ok;
    *unsafe = {ok, "not UTF-8"};
    return {};
  }
  for (size_t i = 0; i < t.size(); ++i) {
    if (ForbiddenControl(t[i])) {
      *unsafe = {i, fmt::format("control character 0x{:02x}", t[i] & 0xff)};
      return {};
    }
  }
  std::string out;
  out.reserve(t.size());
  char before = '\n';  // the last character outside strings and comments, blanks aside
  for (size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (!Ascii(c)) {
      *unsafe = {i, "a non-ASCII character outside a string or comment"};
      return {};
    }
    if (c == '#') {
      for (; i < t.size() && t[i] != '\n'; ++i) out += Ascii(t[i]) ? t[i] : '?';
      continue;
    }
    if (c != '"' && c != '\'') {
      if (c != ' ' && c != '\t' && c != '\r') before = c;
      out += c;
      ++i;
      continue;
    }
    // A string begins a key (at a line's start, after a dot, a `[`, or an inline table's `{` or
    // `,`) or a value (after `=`, or an array's `[` or `,`).
    if (std::string_view("\n.[{,=").find(before) == std::string_view::npos) {
      *unsafe = {i, "a quote where no string can begin"};
      return {};
    }
    const size_t open = i;
    const bool literal = c == '\'';
    const std::string_view triple = literal ? "'''" : "\"\"\"";
    const bool multi = t.substr(i, 3) == triple;
    const std::string_view close = multi ? triple : t.substr(i, 1);
    out += multi ? "\"\"\"" : "\"";
    i += close.size();
    while (i < t.size() && t.substr(i, close.size()) != close) {
      if (!multi && t[i] == '\n') {
        *unsafe = {open, "a string that does not end on its line"};
        return {};
      }
      if (!Ascii(t[i])) {
        out += Escaped(t, &i);
      } else if (literal && (t[i] == '\\' || t[i] == '"')) {
        out += '\\';  // what a literal string holds as it is, a basic one escapes
        out += t[i++];
      } else if (!literal && t[i] == '\\' && i + 1 < t.size()) {
        if (!Ascii(t[i + 1])) {
          *unsafe = {i, "an escape of a non-ASCII character"};
          return {};
        }
        out += t.substr(i, 2);  // an escape: the next byte is the string's
        i += 2;
      } else {
        out += t[i++];
      }
    }
    if (i >= t.size()) {
      *unsafe = {open, "a string that does not end"};
      return {};
    }
    // A multi-line string may end in one or two quotes of its own before the delimiter.
    for (int extra = 0; multi && extra < 2 && i + 3 < t.size() && t[i + 3] == c; ++extra) {
      out += literal ? "'" : "\\\"";
      ++i;
    }
    out += multi ? "\"\"\"" : "\"";
    i += close.size();
    before = c;
  }
  return out;
}

}  // namespace

Result<toml::table> ParseTomlText(std::string_view text, const std::string& path) {
  Unsafe unsafe;
  const std::string ascii = AsciiToml(text, &unsafe);
  if (unsafe.at != std::string_view::npos) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < unsafe.at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return InvalidArgument(
        fmt::format("{}:{}:{}: not valid TOML: {}", path, line, column, unsafe.why));
  }
  try {
    // Lines are those of `text`; a column past an escaped character may differ from its own.
    return toml::parse(ascii, path);
  } catch (const toml::parse_error& e) {
    return InvalidArgument(fmt::format("{}:{}:{}: not valid TOML: {}", path, e.source().begin.line,
                                       e.source().begin.column, e.description()));
  }
}

}  // namespace kaizen::agents
