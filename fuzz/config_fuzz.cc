// libFuzzer target for `<home>/config/learning.json`: the bytes are the file. ApplyConfigJson runs
// against every field of LearnConfig. Nothing may crash, leak or hang, and:
//   - a refused file changes nothing (ConfigJson still prints the defaults) and says why;
//   - an accepted one leaves every field in its range (whole where it must be), and ConfigJson
//     round-trips: its output, applied to a fresh config, is accepted and prints the same bytes;
//   - a Learner built with the accepted config folds a small fixed log and analyzes it.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "learn/config_json.h"
#include "learn/event_reader.h"
#include "learn/learner.h"

namespace {

using namespace kaizen;
using namespace kaizen::learn;

constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z

// Stored lines of every kind the rules fold, a few days before kNowMs.
constexpr std::string_view
    kLog[] =
        {
            R"({"kind":"work","id":"0197c348-8800-7d10-ab83-830f48bd3d19","timestamp":"2025-07-15T00:00:00.000Z","workProduct":{"type":"code-module","id":"art-1","version":"v1","summary":"s","bubaConfidence":0.72,"bubaScorePrediction":7.5,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":10,"iterationCount":1}},"mcpServerType":"github","pipelineStage":"implement"})",
            R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c100","timestamp":"2025-07-15T09:00:00.000Z","sessionId":"s1","modalId":"m1","workProduct":{"id":"art-1","version":"v1"},"pipelineStage":"implement","reviewerId":"jake","decision":{"decision":"rejected","reason":"no retries"},"scores":[{"dimension":"error-handling","score":3},{"dimension":"naming","score":8}],"freeText":{"disliked":"no retries","_extractedThemes":["error-handling"],"_sentiment":-0.5},"confidence":{"level":"fairly-sure","wouldDelegateToAI":false,"needsExpertReview":false},"meta":{"timeToDecisionMs":12000,"fieldsModified":["decision","scores"],"sessionFatigue":1,"timeOfDay":"morning","dayOfWeek":"tuesday"},"_predictionDelta":-2})",
            R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c101","timestamp":"2025-07-16T09:00:00.000Z","sessionId":"s1","modalId":"m2","workProduct":{"id":"art-1"},"pipelineStage":"implement","reviewerId":"jake","decision":{"decision":"approved"},"scores":[{"dimension":"error-handling","score":8}],"comparison":{"optionA":{"id":"art-1","version":"v1"},"optionB":{"type":"code-module","id":"art-2","version":"v1","summary":"s","bubaConfidence":0.4,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":1,"iterationCount":2}},"preferred":"A","preferenceStrength":"strong","dimensions":[{"dimension":"error-handling","winner":"A"},{"dimension":"naming","winner":"tie"}]},"override":"strong","meta":{"timeToDecisionMs":400000,"sessionFatigue":6,"presentationFormat":"diff-summary"}})",
            R"({"kind":"outcome","id":"0197c50f-7dbc-7e96-8efb-437fd8256100","timestamp":"2025-07-16T10:00:00.000Z","bead_id":"bd-1","duration_ms":60000,"error_count":0,"retry_count":0,"success":false,"strategy":"risk-based","criteria":["type_safe"],"patterns":["retry with backoff"],"description":"We'll split by file type"})",
            R"({"kind":"error","id":"0197cfcf-4462-72b8-af7e-1a4321a3e2de","timestamp":"2025-07-17T10:00:00.000Z","bead_id":"bd-1","error_type":"timeout","message":"slow","tool_name":"npm"})",
            R"({"kind":"error","id":"0197cfcf-4462-72b8-af7e-1a4321a3e2df","timestamp":"2025-07-18T10:00:00.000Z","bead_id":"bd-1","resolves":"0197cfcf-4462-72b8-af7e-1a4321a3e2de"})",
            R"({"kind":"loop","id":"0197cfa4-0b65-7203-b82b-49bf667eb0e2","timestamp":"2025-07-18T10:00:00.000Z","loop_id":"loop-1","iteration":1,"metrics":{"test_coverage":0.5,"tests_passing":false},"cost":2.5,"elapsed_seconds":900,"feedback":"add tests"})",
            R"({"kind":"loop","id":"0197cfa4-0b65-7203-b82b-49bf667eb0e3","timestamp":"2025-07-18T11:00:00.000Z","loop_id":"loop-1","iteration":2,"metrics":{"test_coverage":0.5,"tests_passing":false},"cost":2.6,"elapsed_seconds":950,"feedback":"add tests"})",
            R"({"kind":"admin","id":"0197cfa4-0b65-7203-b82b-49bf667eb0e4","timestamp":"2025-07-18T12:00:00.000Z","action":"rule_audit","rule_id":"r1","verdict":"confirm"})",
};

std::string Print(LearnConfig& config) { return ConfigJson(config.Fields()); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  static const std::string defaults = [] {
    LearnConfig c;
    return Print(c);
  }();

  LearnConfig config;
  const ConfigFields fields = config.Fields();
  const Status s = ApplyConfigJson(json, fields);
  const std::string printed = ConfigJson(fields);
  if (!s.ok()) {
    // "On error nothing is changed and the message names the key, the value and the rule."
    if (s.code() != StatusCode::kInvalidArgument || s.message().empty()) std::abort();
    if (printed != defaults) std::abort();
    return 0;
  }
  for (const ConfigField& f : fields) {
    const double v = *f.value;
    if (!(v >= f.min && v <= f.max)) std::abort();
    if (f.integer && v != std::floor(v)) std::abort();
  }

  // ConfigJson is itself a valid learning.json that means the same thing.
  static simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(printed).get(root) != simdjson::SUCCESS) std::abort();
  LearnConfig fresh;
  if (!ApplyConfigJson(printed, fresh.Fields()).ok()) std::abort();
  if (Print(fresh) != printed) std::abort();

  // The rules at this configuration, on a small fixed log.
  Learner learner(config);
  EventReader reader;
  EventViews views;
  for (std::string_view line : kLog) {
    if (!reader.ReadJson(line, &views)) std::abort();
    learner.Add(views);
  }
  const std::string analysis = learner.AnalysisJson(kNowMs);
  if (parser.parse(analysis).get(root) != simdjson::SUCCESS) std::abort();
  (void)learner.AnalysisText(kNowMs);
  std::string text;
  (void)learner.Explain("gate", "error-handling", kNowMs, &text);
  (void)learner.Explain("loop", "loop-1", kNowMs, &text);
  (void)learner.Explain("pattern", "retry with backoff", kNowMs, &text);
  (void)learner.Explain("criterion", "type_safe", kNowMs, &text);
  (void)learner.Explain("autonomy", "github", kNowMs, &text);
  (void)learner.Explain("calibration", "all", kNowMs, &text);
  return 0;
}
