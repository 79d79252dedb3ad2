// Transparent hashing for maps keyed by std::string, so lookups by string_view do not allocate.
#pragma once

#include <functional>
#include <string_view>

namespace kaizen::learn {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace kaizen::learn
