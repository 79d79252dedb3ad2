// `kaizen simulate`: a synthetic agent submits work to a reviewer whose preferences it does not
// know, and kaizen learns from every event in between. With learning on, the agent reads kaizen's
// advice each morning (gates, flagged patterns, calibration, autonomy); with --no-learning it
// ignores it. Same options, same bytes: every random draw comes from SimRng, no clock is read.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/xoshiro.h"

namespace kaizen::sim {

// The generator (sim/xoshiro.h), in independent streams. Uses no libm, so draws are exact
// everywhere.
class SimRng : public Xoshiro256 {
 public:
  using Xoshiro256::Xoshiro256;
  // An independent stream for one purpose of one item: an item's draws do not depend on how
  // many draws other items made, so a run with learning and one without see the same items
  // (common random numbers) and differ only by what the agent did with the advice.
  static SimRng For(uint64_t seed, uint64_t stream, uint64_t day, uint64_t index);

  double Normal();  // mean 0, sd 1 (Irwin-Hall of 12 uniforms: within +-6)
};

// Random streams (the `stream` of SimRng::For).
enum SimStream : uint64_t { kDayStream = 1, kAgentStream = 2, kReviewerStream = 3, kIdStream = 4 };

// 2025-01-06T00:00:00Z, a Monday: simulated weeks are ISO weeks.
inline constexpr int64_t kSimStartMs = 1736121600000;
inline constexpr int64_t kSimDayMs = 86'400'000;

// The quality dimensions this simulation scores (names as in the event model).
enum class Dim : uint8_t {
  kCodeQuality,
  kErrorHandling,
  kTestCoverage,
  kNaming,
  kDocumentation,
  kArchitecture,
  kSecurity,
  kPerformance,
  kCompleteness,
  kDx,
};
inline constexpr int kDimCount = 10;
std::string_view DimName(Dim d);
std::optional<Dim> DimByName(std::string_view name);

// The decomposition patterns the agent's outcomes name (seed 002's strategy names, as
// pattern_extraction.h spells them). Each work item uses one decomposition and one structure.
enum class Pattern : uint8_t {
  kSplitByFeature,
  kSplitByComponent,
  kSplitByLayer,
  kSplitByFileType,
  kTestsAlongside,
  kTestsSeparate,
  kOneFilePerSubtask,
};
inline constexpr int kPatternCount = 7;
inline constexpr int kDecompositionCount = 4;  // the first four; the rest are structures
std::string_view PatternName(Pattern p);
std::optional<Pattern> PatternByName(std::string_view name);

// A task type: the work's mcpServerType, its WorkProductRef type, and the dimensions the
// reviewer may score besides the ones they always check.
struct TaskType {
  std::string_view server;
  std::string_view product_type;
  std::string_view path_prefix;
  double share;  // of the agent's work
  std::array<Dim, 4> pool;
  std::array<std::string_view, 4> features;
};
inline constexpr int kTaskTypeCount = 4;
const std::array<TaskType, kTaskTypeCount>& TaskTypes();

// One work product as the agent made it: the true quality the reviewer perceives (through noise)
// and what the agent believes about it.
struct WorkItem {
  int day = 0, index = 0;
  int task = 0;  // index into TaskTypes()
  int feature = 0;
  int64_t submitted_ms = 0;
  std::string artifact_id;
  Pattern decomposition = Pattern::kSplitByComponent;
  Pattern structure = Pattern::kTestsSeparate;
  bool succeeded = true;                          // the bead behind it (seed 002 outcome `success`)
  std::array<double, kDimCount> quality{};        // 1..10, what a careful reviewer would score
  std::array<double, kDimCount> self_assessed{};  // the agent's own view of it
  double confidence = 0;                          // bubaConfidence as submitted, 0..1
  double score_prediction = 0;                    // bubaScorePrediction, 1..10
  uint64_t prompt_hash = 0;
  int64_t generation_ms = 0;
  int iterations = 1;
  // The bead's outcome event, when the agent reported one.
  bool has_outcome = false;
  int64_t duration_ms = 0;
  int error_count = 0, retry_count = 0;
};

struct SimulateOptions {
  uint64_t seed = 1;
  int days = 84;
  bool learning = true;
  // Work items submitted a week (each reviewed unless its autonomy level lets it skip); 0 keeps
  // the default of 15-25 a day (about 140 a week, a busy team). One developer gives 20-30.
  int reviews_per_week = 0;
};

// One simulated ISO week. Rates are over the week's items; the counts say how many.
struct SimWeek {
  int week = 0;  // 1-based
  int64_t from_ms = 0;
  int64_t submitted = 0, reviewed = 0, approved = 0, auto_approved = 0;
  double abs_error_sum = 0;  // sum |bubaConfidence - approved| over reviewed items, in order
  // Hidden preferences kaizen has found by the week's end: a learned gate (hard or soft) on the
  // hidden gate's dimension with a threshold within 1 of it, or a disfavoured pattern flagged
  // (anti-pattern or deprecated). Once found, a preference stays found: when the agent complies,
  // a gate's evidence ages out of kaizen's 30-day window (seed 000 §9.3).
  int recovered = 0;
  int hidden = 0;

  std::optional<double> ApprovalRate() const;     // approved / reviewed
  std::optional<double> PredictionError() const;  // abs_error_sum / reviewed
  std::optional<double> AutoApproveRate() const;  // auto_approved / submitted
};

struct SimGate {
  std::string dimension;
  int threshold = 0;
  std::string kind;  // hard | soft
};

struct SimulationResult {
  SimulateOptions options;
  std::vector<SimWeek> weeks;
  std::vector<std::string> recovered;  // the hidden preferences found, in kHiddenGates order
                                       // then kDisfavoured: "gate naming < 4", "avoid <pattern>"
  int hidden = 0;
  // The whole run, and kaizen's view at its end.
  uint64_t events = 0;
  SimWeek total;
  std::vector<SimGate> gates;
  std::vector<std::string> flagged_patterns;  // anti-patterns or deprecated, sorted
  std::map<std::string, int> autonomy;        // task type -> level
};

// Runs the simulation. Every generated event, a valid stored line, is appended to *events_jsonl
// in log order when it is not null. Same options: same result and bytes.
SimulationResult RunSimulation(const SimulateOptions& options, std::string* events_jsonl);

// `kaizen simulate --json`: {seed, days, learning, weeks: [{week (1-based), from (YYYY-MM-DD,
// a Monday), submitted, reviewed, approvalRate, predictionError, autoApproveRate, recovered,
// hiddenPreferences}], recovered: [names], final: {events, submitted, reviewed, approvalRate,
// predictionError, autoApproveRate, autoApproved, hiddenPreferences, gates: [{dimension,
// threshold, kind}], flaggedPatterns: [names], autonomy: {taskType: level}}}. Rates are null for
// a week with nothing to divide by; `final` holds the whole run and kaizen's view at its end.
// Ends with a newline.
std::string SimulationJson(const SimulationResult& result);
// The weekly table and a one-paragraph summary, for a person.
std::string SimulationText(const SimulationResult& result);
// The summary paragraph alone.
std::string SimulationSummary(const SimulationResult& result);

// `kaizen demo`'s last step: 8 weeks with and without learning, side by side. Prints to stdout.
void PrintSimulationDemo();

}  // namespace kaizen::sim
