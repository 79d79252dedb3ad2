// For validate's tests only: the valid events they derive broken ones from and the fixture that
// runs ValidateEvent, shared by the validate_*test.cc files (one per kind of rule they check).
#pragma once

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"

namespace kaizen::ingest::validate_test {

inline constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z
inline constexpr char kId[] = "0197f6a2-3b4c-7d5e-8f60-718293a4b5c6";
inline constexpr char kKinds[] =
    "feedback, work, outcome, error, reward, correction, loop, admin, prompt";

// A complete seed-000 WorkProductRef.
inline const std::string kWorkProduct =
    R"({"type":"mcp-server","id":"wp-1","version":"abc123","summary":"a shopify server",)"
    R"("bubaConfidence":0.8,"bubaScorePrediction":7,)"
    R"("generationContext":{"promptHash":"h1","memorySnapshot":["a.md"],"modelUsed":"opus",)"
    R"("generationTimeMs":1200,"iterationCount":2}})";

// A valid feedback event. Tests derive broken ones with With().
inline const std::string kFeedback =
    std::string(R"({"kind":"feedback","id":"0197f6a2-3b4c-7d5e-8f60-718293a4b5c6",)") +
    R"("timestamp":"2025-07-11T09:30:00+02:00","sessionId":"s1","modalId":"m1",)" +
    R"("workProduct":)" + kWorkProduct + R"(,"pipelineStage":"build","mcpServerType":"shopify",)" +
    R"("decision":{"decision":"approved","reason":"solid"},)" +
    R"("scores":[{"dimension":"code-quality","score":8},{"dimension":"naming","score":6},)" +
    R"({"dimension":"dx","score":7}],)" + R"("meta":{"timeToDecisionMs":5000,"revisits":0}})";

// `json` with the single occurrence of `from` replaced by `to`.
inline std::string With(const std::string& json, std::string_view from, std::string_view to) {
  size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture lacks " << from;
  EXPECT_EQ(json.find(from, at + 1), std::string::npos) << "fixture has several " << from;
  if (at == std::string::npos) return json;
  std::string out = json;
  out.replace(at, from.size(), to);
  return out;
}

class Validate : public ::testing::Test {
 protected:
  static ValidateOptions Options() {
    ValidateOptions o;
    o.now_ms = kNowMs;
    return o;
  }

  // The errors, as `path: message` strings.
  std::vector<std::string> Run(std::string_view json, ValidateOptions options = Options()) {
    simdjson::dom::element e;
    auto err = parser_.parse(json.data(), json.size()).get(e);
    EXPECT_EQ(err, simdjson::SUCCESS) << "test JSON does not parse: " << json;
    facts_ = EventFacts{};
    errors_ = ValidateEvent(e, options, &facts_);
    std::vector<std::string> out;
    for (const FieldError& f : errors_) out.push_back(f.ToString());
    return out;
  }

  std::vector<std::string> One(std::string s) { return {std::move(s)}; }

  simdjson::dom::parser parser_;
  EventFacts facts_;
  std::vector<FieldError> errors_;
};

using Strings = std::vector<std::string>;

}  // namespace kaizen::ingest::validate_test
