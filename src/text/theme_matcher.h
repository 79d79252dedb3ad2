// Theme extraction, the seed's `_extractedThemes`: which themes of a taxonomy a text mentions. Kept
// apart from the taxonomy's building, which validates input, while this runs on every event.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/theme_taxonomy.h"

namespace kaizen::text {

// Themes whose keywords occur in the text (case-insensitive, ASCII lowercase folding). Each theme
// name at most once, in taxonomy order. A keyword is one of two kinds:
// - Words and phrases (letters, digits, spaces, - _ / '): matched on word boundaries. Words are
//   runs of ASCII letters/digits and non-ASCII bytes; '-', '_', '/' and spaces all separate
//   words, so "retry-logic", "retry_logic" and "retry logic" match the same keyword. A phrase
//   does not match across a sentence or clause break (. ! ? ; : , newline).
// - Literal keywords: any other ASCII punctuation makes a keyword match as written ("`any",
//   "any[]", ": any)", "res.ok", "type: ignore", "o(n^2)"), for the code-ish forms reviewers
//   write: the same bytes, a space matching any run of whitespace, and not starting or ending
//   inside an identifier of the text (letters, digits, '_', non-ASCII) when the literal starts or
//   ends with one, so "res.ok" matches "if (!res.ok)" but not "res.okay" or "my_res.ok".
//   Comparisons for literals are capped at 16 per byte of text (plus 4096), so no taxonomy makes
//   a text cost more than linear time; the shipped one stays far below the cap.
std::vector<std::string> ExtractThemes(std::string_view text, const ThemeTaxonomy& taxonomy);

}  // namespace kaizen::text
