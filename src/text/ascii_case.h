// ASCII case folding for the free-text rules: lowercase copies, case-insensitive comparison, and a
// hash that agrees with it, so a table can be keyed by views of the text as written. Bytes outside
// A-Z (UTF-8 included) are left as they are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kaizen::text {

inline char LowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// An ASCII-lowercase copy.
inline std::string ToLowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerAscii(c);
  return out;
}

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

// FNV-1a over the lowered bytes: equal under EqualsIgnoreCase, equal hash.
struct CaseInsensitiveHash {
  size_t operator()(std::string_view s) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (char c : s) h = (h ^ static_cast<unsigned char>(LowerAscii(c))) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }
};
struct CaseInsensitiveEqual {
  bool operator()(std::string_view a, std::string_view b) const { return EqualsIgnoreCase(a, b); }
};

}  // namespace kaizen::text
