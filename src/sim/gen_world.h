// The world `kaizen gen` simulates, after the seeds: quality dimensions, MCP servers, product
// types, reviewers, phrase pools, swarm plans, corrections, rules. Every part of the generator
// reads these tables, so they are here; the ones built at run time are defined in gen_world.cc.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "learn/outcomes/pattern_extraction.h"
#include "model/schema.h"

namespace kaizen::sim::gen {

// ---- The world: dimensions, servers, product types ------------------------------------------

enum Dim : int {
  kCodeQuality,
  kDesignAesthetics,
  kDesignUx,
  kTestCoverage,
  kDocumentation,
  kArchitecture,
  kErrorHandling,
  kPerformance,
  kSecurity,
  kCreativity,
  kCompleteness,
  kNaming,
  kDx,
  kDimCount
};
constexpr uint16_t Bit(Dim d) { return static_cast<uint16_t>(1u << d); }

// Dim follows the schema's QualityDimensions() order, so a Dim indexes the schema's names.
inline std::string_view DimName(int d) {
  return model::QualityDimensions()[static_cast<size_t>(d)];
}

// The agent's mean quality per dimension on day 0 and at the end of the history. Error handling
// and security start worst and improve most: that is what the reviewers push hardest on.
inline constexpr std::array<double, kDimCount> kQualityStart = {5.5, 5.2, 5.2, 4.7, 4.8, 5.7, 4.2,
                                                                5.9, 5.0, 5.7, 5.7, 5.3, 5.5};
inline constexpr std::array<double, kDimCount> kQualityEnd = {7.4, 6.8, 7.0, 7.3, 7.1, 7.2, 7.7,
                                                              7.0, 7.5, 6.6, 7.6, 7.4, 7.2};

struct Server {
  std::string_view slug, name;
  float offset;    // overall maturity of the integration
  float security;  // extra, on security
  float errors;    // extra, on error handling
  std::array<std::string_view, 4> domains;
};
inline const std::array<Server, 6> kServers = {{
    {"shopify", "Shopify", 0.5f, 0.0f, 0.0f, {"orders", "inventory", "products", "fulfillments"}},
    {"stripe", "Stripe", 0.2f, -0.6f, -0.2f, {"payments", "subscriptions", "invoices", "refunds"}},
    {"ghl",
     "GoHighLevel",
     -0.6f,
     -0.2f,
     -0.8f,
     {"contacts", "pipelines", "appointments", "campaigns"}},
    {"github", "GitHub", 0.3f, -0.4f, 0.0f, {"issues", "branches", "workflows", "releases"}},
    {"slack", "Slack", 0.0f, 0.0f, -0.1f, {"channels", "messages", "reminders", "bookmarks"}},
    {"notion", "Notion", -0.3f, 0.0f, -0.3f, {"pages", "databases", "blocks", "comments"}},
}};
inline constexpr std::array<double, 6> kServerWeights = {0.24, 0.18, 0.14, 0.18, 0.13, 0.13};
inline bool SecuritySensitive(int server) { return server == 1 || server == 3; }

inline constexpr std::array<std::string_view, 6> kFeatures = {
    "webhook handler", "cursor pagination", "OAuth flow",
    "rate limiter",    "bulk sync",         "retry queue"};
// The reviewers' hidden taste for each feature, in score points: what an A/B comparison of two
// designs lets kaizen's preference vector recover.
inline constexpr std::array<double, 6> kFeatureTaste = {0.0, 0.4, -0.3, 0.6, -0.6, 0.8};
inline constexpr std::array<std::string_view, 5> kStages = {"scaffold", "implement", "test",
                                                            "review", "deploy"};

struct ProductType {
  std::string_view name, slug;
  std::array<double, 5> stage_weights;
  uint16_t dims;                   // the dimensions a review of this type scores from
  std::array<double, 4> affinity;  // who it is routed to (jake, maria, sam, priya)
};
inline const std::array<ProductType, 6> kTypes = {{
    {"mcp-server",
     "mcp",
     {0.2, 0.45, 0.1, 0.2, 0.05},
     Bit(kCodeQuality) | Bit(kErrorHandling) | Bit(kSecurity) | Bit(kTestCoverage) |
         Bit(kDocumentation) | Bit(kNaming) | Bit(kArchitecture) | Bit(kPerformance) |
         Bit(kCompleteness) | Bit(kDx),
     {1.6, 0.8, 0.6, 0.6}},
    {"code-module",
     "module",
     {0.15, 0.5, 0.1, 0.2, 0.05},
     Bit(kCodeQuality) | Bit(kErrorHandling) | Bit(kNaming) | Bit(kArchitecture) |
         Bit(kPerformance) | Bit(kTestCoverage) | Bit(kDocumentation) | Bit(kSecurity),
     {1.2, 0.9, 1.0, 0.8}},
    {"test-suite",
     "tests",
     {0.0, 0.1, 0.75, 0.15, 0.0},
     Bit(kTestCoverage) | Bit(kCodeQuality) | Bit(kCompleteness) | Bit(kNaming) |
         Bit(kPerformance) | Bit(kErrorHandling),
     {0.5, 0.4, 0.2, 2.5}},
    {"documentation",
     "docs",
     {0.1, 0.2, 0.0, 0.6, 0.1},
     Bit(kDocumentation) | Bit(kCompleteness) | Bit(kNaming) | Bit(kDx),
     {0.2, 3.0, 0.3, 0.2}},
    {"design",
     "design",
     {0.5, 0.3, 0.0, 0.2, 0.0},
     Bit(kDesignAesthetics) | Bit(kDesignUx) | Bit(kCreativity) | Bit(kCompleteness) | Bit(kDx),
     {0.1, 0.4, 3.0, 0.1}},
    {"pipeline-config",
     "pipeline",
     {0.1, 0.1, 0.1, 0.1, 0.6},
     Bit(kSecurity) | Bit(kErrorHandling) | Bit(kCompleteness) | Bit(kDx) | Bit(kDocumentation),
     {1.8, 0.5, 0.3, 1.0}},
}};
inline constexpr std::array<double, 6> kTypeWeights = {0.38, 0.24, 0.12, 0.09, 0.09, 0.08};
inline bool IsCode(int type) { return type == 0 || type == 1 || type == 2 || type == 5; }

// ---- Reviewers -------------------------------------------------------------------------------

enum Decision : int { kApproved, kRejected, kNeedsWork, kDeferred };
inline constexpr std::array<std::string_view, 4> kDecisionNames = {"approved", "rejected",
                                                                   "needs-work", "deferred"};

struct Gate {
  Dim dim;
  int below;  // a score under this triggers `outcome`...
  Decision outcome;
  double p;  // ...this often
};

struct Reviewer {
  std::string_view id;
  double share;  // of all feedback
  uint16_t focus;
  std::array<float, kDimCount> bias;  // added to the true quality when this reviewer scores it
  std::vector<Gate> gates;
  double approve_at;                     // mean score from which the reviewer approves
  double ttd_scale;                      // how long this reviewer deliberates
  double scroll;                         // how much of a work product this reviewer reads
  std::array<double, 24> weekday_hours;  // when this reviewer reviews: intensity per UTC hour
  double weekend;
  std::vector<std::string_view> notes_negative, notes_positive;
};

// `w` for the hours from..to (inclusive), `rest` elsewhere, then the exceptions.
inline std::array<double, 24> Hours(int from, int to, double w,
                                    std::initializer_list<std::pair<int, double>> except = {},
                                    double rest = 0) {
  std::array<double, 24> h;
  h.fill(rest);
  for (int hour = from; hour <= to; ++hour) h[hour] = w;
  for (auto [hour, x] : except) h[hour] = x;
  return h;
}

// Built on first use (gen_world.cc).
const std::vector<Reviewer>& Reviewers();

// ---- Phrase pools ----------------------------------------------------------------------------

struct DimText {
  std::vector<std::string_view> liked, disliked, fixes;
};

// Built on first use (gen_world.cc).
const std::array<DimText, kDimCount>& Texts();

inline constexpr std::array<std::string_view, 6> kQuestions = {
    "What happens here when the API returns a 429?",
    "Is this safe to retry?",
    "Why is this input not validated?",
    "Could this name say what it returns?",
    "Is this path covered by a test?",
    "Does this need to run on every request?"};
inline constexpr std::array<std::string_view, 4> kApprovedReasons = {
    "Meets the bar", "Ready to ship", "Good enough for this stage", "Clean and complete"};
inline constexpr std::array<std::string_view, 3> kDeferredReasons = {
    "Need more time to evaluate the design direction",
    "Want a second opinion on the security model", "Revisit tomorrow with fresh eyes"};

// ---- Swarm (seed 002) ------------------------------------------------------------------------

inline constexpr std::array<std::string_view, 4> kStrategies = {"file-based", "feature-based",
                                                                "layer-based", "risk-based"};

// Seed 002's detected strategies, in the order of learn::kDetectedStrategies, which names them.
enum Pattern : uint8_t {
  kSplitByFileType,
  kSplitByComponent,
  kSplitByLayer,
  kSplitByFeature,
  kOneFilePerSubtask,
  kSharedTypesFirst,
  kSeparateApiRoutes,
  kTestsAlongside,
  kTestsSeparate,
  kMaximizeParallel,
  kSequential,
  kDependencyChain,
  kNoPattern = 255,
};
static_assert(kDependencyChain + 1 == learn::kDetectedStrategies.size());
// How often a subtask planned with the pattern succeeds: file-type splits cause reservation
// conflicts (seed 002's anti-pattern example), feature splits with tests alongside rarely fail.
inline constexpr std::array<double, 12> kPatternSuccess = {0.20, 0.74, 0.62, 0.86, 0.30, 0.82,
                                                           0.72, 0.88, 0.55, 0.60, 0.70, 0.84};

struct Plan {
  int strategy;
  std::string_view text;  // contains the pattern phrases, as a planner would write them
  std::array<Pattern, 3> patterns;
};
inline const std::array<Plan, 12> kPlans = {{
    {0,
     "we'll split by file type, one file per subtask",
     {kSplitByFileType, kOneFilePerSubtask, kNoPattern}},
    {0,
     "split by file type and maximize parallelization across agents",
     {kSplitByFileType, kMaximizeParallel, kNoPattern}},
    {0,
     "one file per subtask, tests in separate subtask",
     {kOneFilePerSubtask, kTestsSeparate, kNoPattern}},
    {1,
     "split by feature with tests alongside implementation",
     {kSplitByFeature, kTestsAlongside, kNoPattern}},
    {1,
     "split by feature, handle shared types first, then maximize parallelization",
     {kSplitByFeature, kSharedTypesFirst, kMaximizeParallel}},
    {1,
     "split by component so each agent owns a feature end to end, tests alongside implementation",
     {kSplitByComponent, kTestsAlongside, kNoPattern}},
    {2,
     "split by layer (UI/logic/data) and separate API routes",
     {kSplitByLayer, kSeparateApiRoutes, kNoPattern}},
    {2,
     "handle shared types first, then split by layer (UI/logic/data)",
     {kSharedTypesFirst, kSplitByLayer, kNoPattern}},
    {2,
     "split by layer (UI/logic/data) with tests in separate subtask",
     {kSplitByLayer, kTestsSeparate, kNoPattern}},
    {3,
     "respect dependency chain: riskiest change first, sequential execution order",
     {kDependencyChain, kSequential, kNoPattern}},
    {3,
     "handle shared types first and respect dependency chain",
     {kSharedTypesFirst, kDependencyChain, kNoPattern}},
    {3,
     "sequential execution order for the migration, tests alongside implementation",
     {kSequential, kTestsAlongside, kNoPattern}},
}};
inline constexpr std::array<std::string_view, 6> kEpicTasks = {"Add OAuth",
                                                               "Add webhook retries",
                                                               "Add cursor pagination",
                                                               "Add rate limiting",
                                                               "Migrate to the 2025-07 API version",
                                                               "Add bulk export"};
inline constexpr std::array<std::string_view, 6> kCriteria = {
    "type_safe", "has_tests", "small_diff", "no_any", "documented", "idempotent"};

enum ErrorType : uint8_t { kValidation, kTimeout, kConflict, kToolFailure, kUnknown };
inline constexpr std::array<std::string_view, 5> kErrorTypes = {"validation", "timeout", "conflict",
                                                                "tool_failure", "unknown"};
inline constexpr std::array<std::string_view, 5> kFailureModes = {
    "validation_error", "timeout", "file_conflict", "tool_failure", "unknown"};
struct ErrorText {
  std::array<std::string_view, 3> messages;
  std::array<std::string_view, 2> tools;
};
inline const std::array<ErrorText, 5> kErrorTexts = {{
    {{"Type error in src/auth.ts", "Missing import in src/session.ts",
      "Schema validation failed for OrderInput: customer_email is required"},
     {"typecheck", "zod"}},
    {{"Task exceeded the 10 minute limit", "Bulk query timed out after 30s",
      "Test suite did not finish within 15 minutes"},
     {"bash", "api_client"}},
    {{"File reservation conflict on src/types.ts", "Merge conflict in package.json",
      "Another agent holds the reservation for src/client.ts"},
     {"file_reserve", "git"}},
    {{"npm install failed with ERESOLVE", "Test runner crashed: out of memory",
      "Linter exited with code 2"},
     {"npm", "vitest"}},
    {{"Agent stopped responding", "Unexpected empty response from model",
      "Subtask ended without a result"},
     {"agent", "model"}},
}};
inline constexpr std::array<std::string_view, 5> kErrorContexts = {
    "After adding OAuth types", "While splitting the webhook handler",
    "During the first integration test run", "After rebasing on main",
    "While regenerating the API client"};
inline constexpr std::array<std::string_view, 4> kResolutions = {
    "Fixed the type and reran typecheck", "Retried after the reservation was released",
    "Pinned the dependency and reinstalled", "Raised the timeout and split the query"};

// ---- Corrections (seed 004) ------------------------------------------------------------------

struct CorrectionType {
  std::string_view name;
  int project;  // 0 jSeeker, 1 VIA
  double weight;
  double decline;  // how much of the weight is gone by the end (a learned rule stops the mistake)
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
};
// Built on first use (gen_world.cc).
const std::vector<CorrectionType>& CorrectionTypes();
inline constexpr std::array<std::string_view, 3> kUsers = {"alex", "jordan", "casey"};
inline constexpr std::array<std::string_view, 3> kResumeSections = {"experience", "summary",
                                                                    "skills"};

// ---- Loops (seed 003), rewards (seed 001), admin --------------------------------------------

inline constexpr std::array<std::string_view, 9> kRules = {
    "rule-retry-backoff",          "rule-zod-validation",
    "rule-specific-error-types",   "rule-no-any",
    "rule-jsdoc-public-api",       "anti-split-by-file-type",
    "rule-card-layout-dashboards", "rule-no-animations",
    "pattern-resume-active-voice"};
// Taste rules go stale (sam's preferences drift); hard engineering rules keep being confirmed.
inline constexpr std::array<double, 9> kRuleRetire = {0.05, 0.05, 0.1, 0.05, 0.15,
                                                      0.05, 0.35, 0.5, 0.1};
inline constexpr std::array<std::string_view, 4> kAuditNotes = {
    "Still matches recent reviews", "Reviewers no longer flag this",
    "Confirmed at the monthly rule audit", "Conflicts with newer feedback"};

}  // namespace kaizen::sim::gen
