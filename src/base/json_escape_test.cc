#include "base/json_escape.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

namespace kaizen::base {
namespace {

// The byte-at-a-time definitions the eight-bytes-at-a-time tests must agree with.
bool NeedsEscapingByteByByte(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}
bool HasControlByteByteByByte(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20) return true;
  }
  return false;
}

// `test` agrees with `reference` on every byte value at every offset of strings of 0 to 24 bytes
// of each filler: the byte lands before, inside and across 8-byte words and in the overlapping
// last word; a filler is one the test must never count (plain ASCII, or UTF-8's high bytes).
void ExpectAgreesAtEveryOffset(bool (*test)(std::string_view), bool (*reference)(std::string_view),
                               std::initializer_list<char> fillers) {
  for (const char filler : fillers) {
    for (size_t length = 0; length <= 24; ++length) {
      const std::string plain(length, filler);
      EXPECT_FALSE(test(plain)) << length;
      for (size_t at = 0; at < length; ++at) {
        for (unsigned byte = 0; byte < 256; ++byte) {
          std::string s = plain;
          s[at] = static_cast<char>(byte);
          ASSERT_EQ(test(s), reference(s)) << "byte " << byte << " at " << at << " of " << length;
        }
      }
    }
  }
}

TEST(NeedsJsonEscaping, AgreesWithTheByteRuleForEveryByteAtEveryOffsetAndLength) {
  ExpectAgreesAtEveryOffset(NeedsJsonEscaping, NeedsEscapingByteByByte, {'x', '\xc3'});
}

TEST(HasControlByte, AgreesWithTheByteRuleForEveryByteAtEveryOffsetAndLength) {
  ExpectAgreesAtEveryOffset(HasControlByte, HasControlByteByteByByte, {'x', '\xc3', ' ', '\x7f'});
}

}  // namespace
}  // namespace kaizen::base
