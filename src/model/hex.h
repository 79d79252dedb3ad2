// Reading hexadecimal digits: UUIDs in event ids, percent-escapes in request targets.
#pragma once

#include <array>
#include <cstdint>

namespace kaizen::model {

namespace hex_internal {
// Parsed for every event id at ingest, so a table rather than branches.
inline constexpr auto kValues = [] {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<int8_t>(c - 'A' + 10);
  return t;
}();
}  // namespace hex_internal

// The value of one hex digit (either case), or -1 when `c` is not one.
inline int HexValue(char c) { return hex_internal::kValues[static_cast<unsigned char>(c)]; }

}  // namespace kaizen::model
