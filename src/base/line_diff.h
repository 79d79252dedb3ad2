// A unified diff of two small texts, for `kaizen init --dry-run` to show what it would write.
#pragma once

#include <string>
#include <string_view>

namespace kaizen::base {

// `diff -u` style: "--- a/PATH" / "+++ b/PATH" headers (/dev/null for a file that does not exist
// before or after), then hunks with `context` unchanged lines around each change. Empty when the
// texts are equal. A last line without a newline is marked "\ No newline at end of file".
// Quadratic in the number of lines: meant for config files, not logs.
std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after,
                        bool before_exists, bool after_exists, int context = 3);

}  // namespace kaizen::base
