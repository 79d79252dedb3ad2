#include "kaizen/event_log.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

namespace kaizen {
namespace {

constexpr int64_t kNow = 1752969600000;  // 2025-07-20T00:00:00Z

std::string TempHome(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("kaizen-eventlog-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

TEST(EventLog, RecordsValidLinesAndReportsInvalidOnesWithFieldPaths) {
  std::string home = TempHome("mixed");
  EventLog log(home);
  std::vector<EventLog::LineOutcome> out;
  EventLog::Options options;
  options.now_unix_ms = kNow;
  options.kind = "outcome";
  ASSERT_TRUE(
      log.Record(
             R"({"bead_id":"bd-1","duration_ms":1000,"error_count":0,"retry_count":0,"success":true}
{"bead_id":"bd-2","duration_ms":-5,"error_count":0,"retry_count":0,"success":true})",
             &out, options)
          .ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].stored);
  EXPECT_EQ(out[0].id.size(), 36u);
  EXPECT_FALSE(out[1].stored);
  ASSERT_EQ(out[1].errors.size(), 1u);
  EXPECT_EQ(out[1].errors[0], "duration_ms: -5 is below the minimum 0");

  std::vector<std::string> lines;
  ASSERT_TRUE(log.ForEachStored([&](std::string_view l) { lines.emplace_back(l); }).ok());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("{\"kind\":\"outcome\",\"id\":\"" + out[0].id + "\"", 0), 0u);
  std::filesystem::remove_all(home);
}

TEST(EventLog, UnknownKindOptionIsAnInvalidArgument) {
  std::string home = TempHome("kind");
  EventLog log(home);
  std::vector<EventLog::LineOutcome> out;
  EventLog::Options options;
  options.kind = "review";
  Status s = log.Record("{}", &out, options);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("\"review\" is not one of"), std::string::npos);
  std::filesystem::remove_all(home);
}

}  // namespace
}  // namespace kaizen
