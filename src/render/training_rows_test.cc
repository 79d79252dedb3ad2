#include "render/training_rows.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace kaizen::render {
namespace {

// The rows a log's lines give, one JSON object a line.
std::string Rows(TrainingFormat format, const std::vector<std::string_view>& lines) {
  TrainingRows rows(format);
  simdjson::dom::parser parser;
  std::string out;
  for (std::string_view line : lines)
    rows.Add(parser.parse(line.data(), line.size()).value(), &out);
  return out;
}

constexpr std::string_view kWork =
    R"({"kind":"work","id":"w1","timestamp":"2025-07-10T08:00:00.000Z","workProduct":)"
    R"({"type":"code-module","id":"art-1","version":"v2","path":"src/client.ts","summary":)"
    R"("retrying client","diff":"+retry(3)\n"},"pipelineStage":"implement",)"
    R"("mcpServerType":"shopify","repository":"acme/shop"})";

TEST(TrainingRows, ACorrectionIsAPreferencePairWithItsContextAsPrompt) {
  const std::string out = Rows(
      TrainingFormat::kDpo,
      {R"({"kind":"correction","id":"c1","timestamp":"2025-07-10T14:00:00.000Z","session_id":"s1",)"
       R"("correction_type":"passive_to_active","original":"Responsible for hiring",)"
       R"("corrected":"Hired 6 engineers","user_id":"jordan","context":{"project":"jSeeker",)"
       R"("section":"experience"}})"});
  EXPECT_EQ(out, R"({"prompt":"Write the text (passive_to_active); project: jSeeker; section: )"
                 R"(experience","chosen":"Hired 6 engineers","rejected":"Responsible for hiring",)"
                 R"("correctionType":"passive_to_active","source":"correction","eventId":"c1",)"
                 R"("author":"jordan","session":"s1","time":"2025-07-10T14:00:00.000Z",)"
                 R"("project":"jSeeker"})"
                 "\n");
  // SFT takes no corrections; a correction that changed nothing is no pair.
  EXPECT_EQ(Rows(TrainingFormat::kSft, {R"({"kind":"correction","original":"a","corrected":"b"})"}),
            "");
  EXPECT_EQ(Rows(TrainingFormat::kDpo, {R"({"kind":"correction","original":"a","corrected":"a"})"}),
            "");
}

TEST(TrainingRows, ApprovedWorkNamedByReferenceIsASupervisedRow) {
  const std::string out =
      Rows(TrainingFormat::kSft,
           {kWork,
            R"({"kind":"feedback","id":"f1","timestamp":"2025-07-10T10:00:00.000Z",)"
            R"("sessionId":"r1","reviewerId":"ana","workProduct":{"id":"art-1","version":"v2"},)"
            R"("decision":{"decision":"approved"}})",
            R"({"kind":"feedback","id":"f2","workProduct":{"id":"art-1","version":"v2"},)"
            R"("decision":{"decision":"rejected"}})",
            R"({"kind":"feedback","id":"f3","workProduct":{"id":"unknown","version":"v1"},)"
            R"("decision":{"decision":"approved"}})"});
  EXPECT_EQ(out,
            R"({"prompt":"code-module src/client.ts (shopify, stage implement): retrying client",)"
            R"("completion":"+retry(3)\n","source":"approved-work","eventId":"f1","author":"ana",)"
            R"("session":"r1","time":"2025-07-10T10:00:00.000Z","project":"shop"})"
            "\n");
}

TEST(TrainingRows, AComparisonIsAPairOfThePreferredAndTheOtherWithItsWinners) {
  const std::string_view feedback =
      R"({"kind":"feedback","id":"f9","reviewerId":"bo","sessionId":"r2","timestamp":"t",)"
      R"("comparison":{"optionA":{"id":"art-1","version":"v2"},"optionB":{"type":"code-module",)"
      R"("id":"art-2","version":"v1","summary":"no retries"},"preferred":"B",)"
      R"("preferenceStrength":"strong","dimensions":[{"dimension":"error-handling","winner":"A"},)"
      R"({"dimension":"naming","winner":"tie"},{"dimension":"dx","winner":"B"}]}})";
  const std::string out = Rows(TrainingFormat::kDpo, {kWork, feedback});
  EXPECT_EQ(out, R"({"prompt":"code-module","chosen":"no retries","rejected":"+retry(3)\n",)"
                 R"("strength":"strong","winners":{"error-handling":"rejected","naming":"tie",)"
                 R"("dx":"chosen"},"source":"comparison","eventId":"f9","author":"bo",)"
                 R"("session":"r2","time":"t"})"
                 "\n");
  std::string neither(feedback);
  neither.replace(neither.find(R"("preferred":"B")"), 15, R"("preferred":"neither")");
  EXPECT_EQ(Rows(TrainingFormat::kDpo, {kWork, neither}), "");
}

}  // namespace
}  // namespace kaizen::render
