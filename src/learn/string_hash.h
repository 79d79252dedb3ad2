// Transparent hashing for maps keyed by std::string, so lookups by string_view do not allocate,
// and the find-or-insert that the learners' string-keyed tallies share.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace kaizen::learn {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// The value for `key` in a map keyed by std::string with transparent lookup (std::map with
// std::less<>, or a hash map with StringHash), value-initialized when absent. A present key is
// found by its view: no string is built.
template <typename Map>
typename Map::mapped_type& Entry(Map& map, std::string_view key) {
  auto it = map.find(key);
  if (it == map.end()) it = map.emplace(std::string(key), typename Map::mapped_type{}).first;
  return it->second;
}

}  // namespace kaizen::learn
