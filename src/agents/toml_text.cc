#include "agents/toml_text.h"

#include <fmt/format.h>

namespace kaizen::agents {
namespace {

// Where the first byte >= 0x80 outside strings and comments is, or npos.
size_t BareNonAscii(std::string_view t) {
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (static_cast<unsigned char>(c) >= 0x80) return i;
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool multi = t.substr(i, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''");
      const std::string_view close = multi ? t.substr(i, 3) : t.substr(i, 1);
      i += close.size();
      while (i < t.size() && t.substr(i, close.size()) != close) {
        if (c == '"' && t[i] == '\\') {
          i += 2;  // an escape: the next byte is the string's
          continue;
        }
        if (!multi && t[i] == '\n') break;  // an unclosed one-line string: toml++ refuses it
        ++i;
      }
      // A multi-line string may end in one or two quotes of its own before the delimiter.
      for (int extra = 0; multi && extra < 2 && i + 3 < t.size() && t[i + 3] == c; ++extra) ++i;
      i += close.size() - 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Result<toml::table> ParseTomlText(std::string_view text, const std::string& path) {
  if (const size_t at = BareNonAscii(text); at != std::string_view::npos) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return InvalidArgument(
        fmt::format("{}:{}:{}: not valid TOML: a non-ASCII character outside a string or comment",
                    path, line, column));
  }
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return InvalidArgument(fmt::format("{}:{}:{}: not valid TOML: {}", path, e.source().begin.line,
                                       e.source().begin.column, e.description()));
  }
}

}  // namespace kaizen::agents
