// The `_actionableItems` of a feedback event's free text (text_analysis.h). On its own because it
// splits sentences and deduplicates them, which no other part of the text analysis does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kaizen::text {

// Actionable items: the sentences (split on . ! ? ; newline) that ask for a change, found by cues
// such as should, must, need to, needs, please, add, remove, use, avoid, consider, missing, wish,
// instead, make sure, don't. Returned trimmed (also of list bullets), in order, without duplicates
// (compared case- and whitespace-insensitively), each capped at 280 bytes on a UTF-8 boundary.
// . ! ? ; end a sentence only when followed by a non-word character or the end, so "foo.bar()",
// "1.5" and "node.js" stay whole.
std::vector<std::string> ActionableItems(std::string_view text);

}  // namespace kaizen::text
