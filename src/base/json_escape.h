// Whether a string needs escaping inside a JSON string literal: the writers that copy text
// between quotes themselves (the stored line, `kaizen gen`) ask this first. And whether it holds
// a control byte, which an identifier may not.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace kaizen::base {

namespace json_escape_internal {

inline constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;

// The high bit of each byte of `v` below 0x20 (and perhaps of a byte after one: the borrow trick
// can only misfire in a word that really has one, so a word without any comes out 0).
inline uint64_t BelowSpace(uint64_t v) { return (v - kOnes * 0x20) & ~v & kHighs; }

// Whether `word_test` finds a byte in any of the words of `s`, eight bytes at a time (the last
// word overlaps the one before), or `byte_test` one in a string under a word.
template <typename WordTest, typename ByteTest>
bool AnyByte(std::string_view s, WordTest word_test, ByteTest byte_test) {
  const char* d = s.data();
  const size_t n = s.size();
  if (n < 8) {
    for (size_t i = 0; i < n; ++i) {
      if (byte_test(static_cast<unsigned char>(d[i]))) return true;
    }
    return false;
  }
  uint64_t found = 0, v;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&v, d + i, 8);
    found |= word_test(v);
  }
  std::memcpy(&v, d + n - 8, 8);
  return (found | word_test(v)) != 0;
}

}  // namespace json_escape_internal

// True when `s` holds a '"', a '\\' or a control byte (below 0x20): the bytes JSON requires to
// be escaped. Anything else, UTF-8 included, is written between quotes as it is. Most text needs
// no escaping, so eight bytes are tested at a time.
inline bool NeedsJsonEscaping(std::string_view s) {
  using namespace json_escape_internal;
  const auto zero = [](uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return AnyByte(
      s,
      [&](uint64_t v) {
        return BelowSpace(v) | zero(v ^ (kOnes * '"')) | zero(v ^ (kOnes * '\\'));
      },
      [](unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; });
}

// True when `s` holds a control byte (below 0x20): the validator asks it of every identifier of
// every event.
inline bool HasControlByte(std::string_view s) {
  using namespace json_escape_internal;
  return AnyByte(s, BelowSpace, [](unsigned char c) { return c < 0x20; });
}

}  // namespace kaizen::base
