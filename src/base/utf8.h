// Cutting text to a byte budget without splitting a UTF-8 sequence.
#pragma once

#include <cstddef>
#include <string_view>

namespace kaizen::base {

// The longest prefix of `s` of at most `max_bytes` bytes that does not end inside a UTF-8
// sequence. Backs up at most 3 bytes: more continuation bytes than that mean `s` is not UTF-8
// there anyway, and the cut must still make progress.
inline std::string_view Utf8Prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80; ++k) {
    --cut;
  }
  return s.substr(0, cut);
}

}  // namespace kaizen::base
