#include "model/uuid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace kaizen::model {
namespace {

constexpr char kSample[] = "0197f6a2-3b4c-7d5e-8f60-718293a4b5c6";

TEST(Uuid, ParsesCanonicalTextIntoBytes) {
  auto u = ParseUuid(kSample);
  ASSERT_TRUE(u.has_value());
  const std::array<uint8_t, 16> expected = {0x01, 0x97, 0xf6, 0xa2, 0x3b, 0x4c, 0x7d, 0x5e,
                                            0x8f, 0x60, 0x71, 0x82, 0x93, 0xa4, 0xb5, 0xc6};
  EXPECT_EQ(u->bytes, expected);
}

TEST(Uuid, FormatParseRoundTrip) {
  auto u = ParseUuid(kSample);
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->ToString(), kSample);

  Uuid all;
  for (size_t i = 0; i < 16; ++i) all.bytes[i] = static_cast<uint8_t>(i * 17);
  std::string text = all.ToString();
  EXPECT_EQ(text, "00112233-4455-6677-8899-aabbccddeeff");
  auto back = ParseUuid(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, all);
}

TEST(Uuid, AcceptsUppercaseAndFormatsLowercase) {
  auto u = ParseUuid("0197F6A2-3B4C-7D5E-8F60-718293A4B5C6");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->ToString(), kSample);
  EXPECT_EQ(*u, *ParseUuid(kSample));
}

TEST(Uuid, RejectsWrongLength) {
  EXPECT_FALSE(ParseUuid("").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f60-718293a4b5c").has_value());    // 35
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f60-718293a4b5c6a").has_value());  // 37
  EXPECT_FALSE(ParseUuid("0197f6a23b4c7d5e8f60718293a4b5c6").has_value());       // no dashes
  EXPECT_FALSE(ParseUuid("{0197f6a2-3b4c-7d5e-8f60-718293a4b5c6}").has_value());
}

TEST(Uuid, RejectsMisplacedDashes) {
  // Right length, dashes shifted by one.
  EXPECT_FALSE(ParseUuid("0197f6a-23b4c-7d5e-8f60-718293a4b5c6").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c7-d5e-8f60-718293a4b5c6").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f60_718293a4b5c6").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f607-18293a4b5c6").has_value());
}

TEST(Uuid, RejectsNonHexDigits) {
  EXPECT_FALSE(ParseUuid("0197f6g2-3b4c-7d5e-8f60-718293a4b5c6").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f60-718293a4b5cz").has_value());
  EXPECT_FALSE(ParseUuid("z197f6a2-3b4c-7d5e-8f60-718293a4b5c6").has_value());
  EXPECT_FALSE(ParseUuid("0197f6a2-3b4c-7d5e-8f60-718293a4b5 6").has_value());
  EXPECT_FALSE(ParseUuid("------------------------------------").has_value());
}

TEST(Uuid, MakeV7PutsMillisecondsBigEndianInFirstSixBytes) {
  const int64_t ms = 0x0123456789AB;
  uint8_t random[16];
  std::fill(std::begin(random), std::end(random), 0xFF);
  Uuid u = MakeUuidV7(ms, random);
  EXPECT_EQ(u.bytes[0], 0x01);
  EXPECT_EQ(u.bytes[1], 0x23);
  EXPECT_EQ(u.bytes[2], 0x45);
  EXPECT_EQ(u.bytes[3], 0x67);
  EXPECT_EQ(u.bytes[4], 0x89);
  EXPECT_EQ(u.bytes[5], 0xAB);
  EXPECT_EQ(u.ToString().substr(0, 13), "01234567-89ab");
}

TEST(Uuid, MakeV7SetsVersionSevenAndVariantTen) {
  for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x5A}}) {
    uint8_t random[16];
    std::fill(std::begin(random), std::end(random), fill);
    Uuid u = MakeUuidV7(1752226200000, random);
    EXPECT_EQ(u.bytes[6] >> 4, 7) << int{fill};
    EXPECT_EQ(u.bytes[8] >> 6, 0b10) << int{fill};
    EXPECT_EQ(u.ToString()[14], '7');
    char variant = u.ToString()[19];
    EXPECT_TRUE(variant == '8' || variant == '9' || variant == 'a' || variant == 'b') << variant;
  }
}

TEST(Uuid, MakeV7KeepsTheRandomBitsOutsideVersionAndVariant) {
  uint8_t random[16];
  for (int i = 0; i < 16; ++i) random[i] = static_cast<uint8_t>(0xA0 + i);
  Uuid u = MakeUuidV7(0, random);
  EXPECT_EQ(u.bytes[6], 0x70 | (random[6] & 0x0F));
  EXPECT_EQ(u.bytes[7], random[7]);
  EXPECT_EQ(u.bytes[8], 0x80 | (random[8] & 0x3F));
  for (int i = 9; i < 16; ++i) EXPECT_EQ(u.bytes[i], random[i]) << i;
}

TEST(Uuid, MakeV7IdsAtIncreasingMillisecondsSortIncreasinglyAsStrings) {
  // Random bits chosen to fight the order: the earlier ids get the larger random part.
  std::vector<std::string> ids;
  const int64_t base = 1752226200000;
  for (int64_t step : {0, 1, 2, 255, 256, 65536, 86400000}) {
    uint8_t random[16];
    std::fill(std::begin(random), std::end(random), static_cast<uint8_t>(0xFF - step % 200));
    ids.push_back(MakeUuidV7(base + step, random).ToString());
  }
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
}

TEST(Uuid, NewV7GivesDifferentIdsForTheSameMillisecond) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    Uuid u = NewUuidV7(1752226200000);
    EXPECT_EQ(u.bytes[6] >> 4, 7);
    EXPECT_EQ(u.bytes[8] >> 6, 0b10);
    seen.insert(u.ToString());
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(Uuid, NewV7EncodesItsTimestamp) {
  Uuid a = NewUuidV7(1752226200000);
  Uuid b = NewUuidV7(1752226200000);
  EXPECT_EQ(a.ToString().substr(0, 13), b.ToString().substr(0, 13));
  EXPECT_LT(NewUuidV7(1752226200000).ToString(), NewUuidV7(1752226200001).ToString());
}

TEST(Uuid, HashDiffersForDifferentIdsAndMatchesForEqualOnes) {
  UuidHash h;
  Uuid a = *ParseUuid(kSample);
  Uuid b = *ParseUuid("0197f6a2-3b4c-7d5e-8f60-718293a4b5c7");
  EXPECT_EQ(h(a), h(*ParseUuid(kSample)));
  EXPECT_NE(h(a), h(b));
}

}  // namespace
}  // namespace kaizen::model
