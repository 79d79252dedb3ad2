// Prompt safety (issue 4 §8): reviewer text that goes into a file an agent reads is data, never
// instructions. Every such string passes through QuoteReviewerText before it is written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kaizen::render {

inline constexpr size_t kMaxQuotedBytes = 200;

// One line of plain text, safe to quote inside markdown: control characters (C0, DEL, C1, and the
// Unicode line/paragraph separators and bidi overrides) become spaces; markdown that could pose
// as structure or instructions is removed (headings, block quotes, list markers, emphasis,
// backticks and code fences, links and images keep only their text, HTML tags and comments are
// dropped); whitespace collapses; invalid UTF-8 bytes are dropped; the result is cut to
// `max_bytes` on a UTF-8 boundary with "…" appended when cut.
std::string SanitizeReviewerText(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

// SanitizeReviewerText, then wrapped in typographic quotes (“…”), with any quote characters
// inside replaced by ', so the text cannot close its own quote. Empty text gives "".
std::string QuoteReviewerText(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

}  // namespace kaizen::render
