// A value as it appears in an error message.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace kaizen::base {

// Quoted, control characters shown as spaces, cut after 60 bytes at a character boundary, so one
// bad 64 KiB value does not flood the terminal.
inline std::string QuoteForMessage(std::string_view s) {
  size_t cut = std::min<size_t>(s.size(), 60);
  // Do not cut a UTF-8 sequence in half: back off to the start of the character.
  while (cut < s.size() && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  std::string out = "\"";
  for (char c : s.substr(0, cut)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
  out += cut < s.size() ? "...\"" : "\"";
  return out;
}

}  // namespace kaizen::base
