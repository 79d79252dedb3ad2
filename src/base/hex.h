// Hexadecimal digits: read in UUIDs and percent-escapes, written for digests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kaizen::base {

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

// `n` bytes as lowercase hex digits, two a byte.
inline std::string HexOf(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

}  // namespace kaizen::base
