// Whether a string needs escaping inside a JSON string literal: the writers that copy text
// between quotes themselves (the stored line, `kaizen gen`) ask this first. And whether it holds
// a control byte, which an identifier may not.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace kaizen::model {

// True when `s` holds a '"', a '\\' or a control byte (below 0x20): the bytes JSON requires to
// be escaped. Anything else, UTF-8 included, is written between quotes as it is. Most text needs
// no escaping, so eight bytes are tested at a time: a word with none of those bytes has no bit
// set (the borrow trick can only misfire in a word that really has one).
inline bool NeedsJsonEscaping(std::string_view s) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const auto special = [](uint64_t v) {
    const auto zero = [](uint64_t x) { return (x - kOnes) & ~x & kHighs; };
    return ((v - kOnes * 0x20) & ~v & kHighs) | zero(v ^ (kOnes * '"')) | zero(v ^ (kOnes * '\\'));
  };
  const char* d = s.data();
  const size_t n = s.size();
  if (n < 8) {
    for (size_t i = 0; i < n; ++i) {
      const unsigned char c = static_cast<unsigned char>(d[i]);
      if (c < 0x20 || c == '"' || c == '\\') return true;
    }
    return false;
  }
  uint64_t found = 0, v;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&v, d + i, 8);
    found |= special(v);
  }
  std::memcpy(&v, d + n - 8, 8);
  return (found | special(v)) != 0;
}

// True when `s` holds a control byte (below 0x20), tested eight bytes at a time as above: the
// validator asks it of every identifier of every event.
inline bool HasControlByte(std::string_view s) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const auto below_space = [](uint64_t v) { return (v - kOnes * 0x20) & ~v & kHighs; };
  const char* d = s.data();
  const size_t n = s.size();
  if (n < 8) {
    for (size_t i = 0; i < n; ++i) {
      if (static_cast<unsigned char>(d[i]) < 0x20) return true;
    }
    return false;
  }
  uint64_t found = 0, v;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&v, d + i, 8);
    found |= below_space(v);
  }
  std::memcpy(&v, d + n - 8, 8);
  return (found | below_space(v)) != 0;
}

}  // namespace kaizen::model
