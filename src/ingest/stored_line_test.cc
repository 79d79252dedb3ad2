// The stored line must stay JSON whatever bytes a string holds: a reviewer's text with a terminal
// escape in it was once written raw (RapidJSON's SSE2 scan let 0x1A-0x1F through) and the event,
// already acknowledged, became unreadable.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <string>

#include "ingest/enrich.h"

namespace kaizen::ingest {
namespace {

std::string Escaped(unsigned byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", byte);
  return buf;
}

TEST(StoredLine, EveryControlByteIsEscapedAtEveryOffset) {
  // Offsets 0..40 put the control byte before, inside and after each 16-byte SIMD block.
  for (unsigned byte = 0; byte < 0x20; ++byte) {
    for (size_t offset = 0; offset <= 40; ++offset) {
      const std::string text = std::string(offset, 'x') + Escaped(byte) + std::string(20, 'y');
      const std::string doc = "{\"s\":\"" + text + "\"}";
      simdjson::dom::parser parser;
      simdjson::dom::element parsed;
      ASSERT_EQ(parser.parse(doc).get(parsed), simdjson::SUCCESS);
      rapidjson::StringBuffer out;
      rapidjson::Writer<rapidjson::StringBuffer> writer(out);
      CopyJson(parsed, writer);
      const std::string stored = out.GetString();
      for (char ch : stored) {
        ASSERT_GE(static_cast<unsigned char>(ch), 0x20u)
            << "byte " << byte << " at offset " << offset << " stored raw";
      }
      simdjson::dom::parser reparser;
      std::string_view back;
      ASSERT_EQ(reparser.parse(stored)["s"].get(back), simdjson::SUCCESS) << stored;
      EXPECT_EQ(back[offset], static_cast<char>(byte));
    }
  }
}

}  // namespace
}  // namespace kaizen::ingest
