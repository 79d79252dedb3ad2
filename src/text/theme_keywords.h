// What the theme matcher (theme_matcher.cc) makes of a keyword, for the taxonomy's validation
// (theme_taxonomy.cc). Internal to src/text.
#pragma once

#include <string_view>

namespace kaizen::text::internal {

// Whether the keyword holds a word for the matcher: an ASCII letter or digit, or a non-ASCII byte
// that is not a typographic separator.
bool KeywordHasWord(std::string_view keyword);

// Whether the keyword is matched as written (ExtractThemes): it has ASCII punctuation other than
// - _ / '.
bool IsLiteralKeyword(std::string_view keyword);

}  // namespace kaizen::text::internal
