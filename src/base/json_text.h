#pragma once

#include <string>
#include <string_view>

namespace kaizen::base {

// `s` as a JSON string literal, quotes included, for hand-assembled JSON output.
std::string JsonQuote(std::string_view s);

}  // namespace kaizen::base
