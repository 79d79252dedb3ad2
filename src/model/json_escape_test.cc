#include "model/json_escape.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::model {
namespace {

// The byte-at-a-time definition the eight-bytes-at-a-time test must agree with.
bool Reference(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}

TEST(NeedsJsonEscaping, AgreesWithTheByteRuleForEveryByteAtEveryOffsetAndLength) {
  // Lengths 0..24 and every offset put the byte before, inside and across 8-byte words and in the
  // overlapping last word; the filler is plain ASCII or UTF-8 (high bytes must never count).
  for (const char filler : {'x', '\xc3'}) {
    for (size_t length = 0; length <= 24; ++length) {
      const std::string plain(length, filler);
      EXPECT_FALSE(NeedsJsonEscaping(plain)) << length;
      for (size_t at = 0; at < length; ++at) {
        for (unsigned byte = 0; byte < 256; ++byte) {
          std::string s = plain;
          s[at] = static_cast<char>(byte);
          ASSERT_EQ(NeedsJsonEscaping(s), Reference(s))
              << "byte " << byte << " at " << at << " of " << length;
        }
      }
    }
  }
}

TEST(HasControlByte, AgreesWithTheByteRuleForEveryByteAtEveryOffsetAndLength) {
  for (const char filler : {'x', '\xc3', ' ', '\x7f'}) {
    for (size_t length = 0; length <= 24; ++length) {
      const std::string plain(length, filler);
      EXPECT_FALSE(HasControlByte(plain)) << length;
      for (size_t at = 0; at < length; ++at) {
        for (unsigned byte = 0; byte < 256; ++byte) {
          std::string s = plain;
          s[at] = static_cast<char>(byte);
          ASSERT_EQ(HasControlByte(s), byte < 0x20)
              << "byte " << byte << " at " << at << " of " << length;
        }
      }
    }
  }
}

}  // namespace
}  // namespace kaizen::model
