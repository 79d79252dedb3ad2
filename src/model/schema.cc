#include "model/schema.h"

#include <cstdint>
#include <cstring>

namespace kaizen::model {
namespace {

FieldSpec Make(std::string_view name, JsonType type) {
  FieldSpec f;
  f.name = name;
  f.type = type;
  return f;
}
FieldSpec Str(std::string_view n) { return Make(n, JsonType::kString); }
FieldSpec Ident(std::string_view n) { return Make(n, JsonType::kIdentifier); }
FieldSpec Num(std::string_view n) { return Make(n, JsonType::kNumber); }
FieldSpec Int(std::string_view n) { return Make(n, JsonType::kInteger); }
FieldSpec Bool(std::string_view n) { return Make(n, JsonType::kBool); }
FieldSpec Any(std::string_view n) { return Make(n, JsonType::kAny); }
FieldSpec Time(std::string_view n) { return Make(n, JsonType::kTimestamp); }
FieldSpec Uuid(std::string_view n) { return Make(n, JsonType::kUuid); }
FieldSpec Obj(std::string_view n, const ObjectSpec& s) {
  FieldSpec f = Make(n, JsonType::kObject);
  f.object = &s;
  return f;
}
FieldSpec ArrOf(std::string_view n, JsonType t) {
  FieldSpec f = Make(n, JsonType::kArray);
  f.element = t;
  return f;
}
FieldSpec ArrOfObj(std::string_view n, const ObjectSpec& s) {
  FieldSpec f = ArrOf(n, JsonType::kObject);
  f.object = &s;
  return f;
}

// Fields every kind carries. `id` and `timestamp` are generated when absent.
std::vector<FieldSpec> Common(std::vector<FieldSpec> rest) {
  std::vector<FieldSpec> f = {
      Ident("kind").Req().Doc("the event kind"),
      Uuid("id").Doc("UUID (v7 generated when absent)"),
      Time("timestamp").Doc("ISO 8601; stored as UTC with milliseconds (now when absent)"),
  };
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}

// kaizen extension: the source repository of the work (GitHub's OWNER/NAME), so that later
// learning can be scoped by repository. Seed 000 has no such field; `reward` keeps it in
// `context.repo`, as `kaizen git scan` does.
constexpr std::string_view kRepositoryDoc =
    "the repository the work belongs to (OWNER/NAME on GitHub); kaizen extension";

const std::vector<std::string_view> kSeverity4 = {"minor", "moderate", "major", "critical"};

const ObjectSpec& GenerationContextSpec() {
  static const ObjectSpec s{"generationContext",
                            {
                                Ident("promptHash").Req(),
                                ArrOf("memorySnapshot", JsonType::kString).Req(),
                                Ident("modelUsed").Req(),
                                Num("generationTimeMs").Req().Range(0, 1e15),
                                Int("iterationCount").Req().Range(0, 1e9),
                            }};
  return s;
}

const ObjectSpec& DecisionSpec() {
  static const ObjectSpec s{
      "DecisionFeedback",
      {
          Ident("decision").Req().OneOf({"approved", "rejected", "needs-work", "deferred"}),
          Str("reason"),
          Ident("severity").OneOf(kSeverity4),
          ArrOf("blockers", JsonType::kString),
          ArrOf("suggestions", JsonType::kString),
      }};
  return s;
}

const ObjectSpec& DimensionScoreSpec() {
  static const ObjectSpec s{"DimensionScore",
                            {
                                Ident("dimension").Req().OneOf(QualityDimensions()),
                                Num("score").Req().Range(1, 10),
                                Num("weight").Range(0, 1e6),
                                Str("comment"),
                            }};
  return s;
}

const ObjectSpec& FreeTextSpec() {
  static const ObjectSpec s{"FreeTextFeedback",
                            {
                                Str("liked"),
                                Str("disliked"),
                                Str("generalNotes"),
                                // Enrichment output; recomputed at ingest.
                                ArrOf("_extractedThemes", JsonType::kString),
                                Num("_sentiment").Range(-1, 1),
                                ArrOf("_actionableItems", JsonType::kString),
                            }};
  return s;
}

const ObjectSpec& DimensionWinnerSpec() {
  static const ObjectSpec s{"DimensionWinner",
                            {
                                Ident("dimension").Req().OneOf(QualityDimensions()),
                                Ident("winner").Req().OneOf({"A", "B", "tie"}),
                            }};
  return s;
}

const ObjectSpec& ComparisonSpec() {
  static const ObjectSpec s{
      "ComparisonFeedback",
      {
          Obj("optionA", WorkProductRefSpec()).Req(),
          Obj("optionB", WorkProductRefSpec()).Req(),
          Ident("preferred").Req().OneOf({"A", "B", "neither", "both-good"}),
          Str("reason"),
          Ident("preferenceStrength").Req().OneOf({"slight", "moderate", "strong", "overwhelming"}),
          ArrOfObj("dimensions", DimensionWinnerSpec()),
      }};
  return s;
}

const ObjectSpec& AnnotationTargetSpec() {
  static const ObjectSpec s{"AnnotationTarget",
                            {
                                Str("file"),
                                Int("lineStart").Range(0, 1e9),
                                Int("lineEnd").Range(0, 1e9),
                                Str("selector"),
                                Str("region"),
                            }};
  return s;
}

const ObjectSpec& AnnotationSpec() {
  static const ObjectSpec s{
      "Annotation",
      {
          Ident("type").Req().OneOf({"praise", "criticism", "question", "suggestion"}),
          Obj("target", AnnotationTargetSpec()).Req(),
          Str("text").Req(),
          Ident("severity").OneOf({"nit", "minor", "major", "critical"}),
          Ident("category"),
      }};
  return s;
}

const ObjectSpec& ConfidenceSpec() {
  static const ObjectSpec s{"ConfidenceFeedback",
                            {
                                Ident("level").Req().OneOf(
                                    {"very-unsure", "somewhat-unsure", "fairly-sure", "very-sure"}),
                                Bool("wouldDelegateToAI").Req(),
                                Bool("needsExpertReview").Req(),
                            }};
  return s;
}

// seed 000 §3.5 detail level: one summary section the review page showed.
const ObjectSpec& SectionReadSpec() {
  static const ObjectSpec s{
      "SectionRead",
      {
          Str("name").Req().Doc("the section's heading in the work's summary"),
          Num("visibleMs").Req().Range(0, 1e12).Doc("how long it was on screen"),
          Bool("expanded").Doc("the reviewer opened it for more (Show more)"),
      }};
  return s;
}

const ObjectSpec& MetaSpec() {
  static const ObjectSpec s{
      "FeedbackMeta",
      {
          // Required unless `unmeasured` lists it (ingest/validate.cc).
          Num("timeToDecisionMs").Range(0, 1e12),
          Num("timeToFirstInteractionMs").Range(0, 1e12),
          ArrOf("fieldsModified", JsonType::kIdentifier),
          Num("scrollDepth").Range(0, 1),
          Int("revisits").Range(0, 1e9),
          Ident("deviceType").OneOf({"desktop", "mobile"}),
          // Enrichment output, computed from the timestamp and the session.
          Ident("timeOfDay").OneOf({"morning", "afternoon", "evening", "night"}),
          Ident("dayOfWeek")
              .OneOf(
                  {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}),
          Int("concurrentModals").Range(0, 1e9),
          Int("sessionFatigue").Range(0, 1e12),
          Ident("presentationFormat")
              .Doc("how the work was shown (seed 000 §3.5), e.g. diff-summary, full-file, "
                   "summary-only"),
          ArrOfObj("sections", SectionReadSpec())
              .Doc("seed 000 §3.5 detail level: the summary's sections the page showed, how long "
                   "each was on screen and whether it was expanded; kaizen extension"),
          ArrOf("unmeasured", JsonType::kIdentifier)
              .Doc("the meta fields the client could not measure, each then absent (kaizen "
                   "review with decision flags: timeToDecisionMs); kaizen extension"),
      }};
  return s;
}

const ObjectSpec& FeedbackSpec() {
  static const ObjectSpec s{
      "feedback",
      Common({
          Ident("sessionId").Req(),
          Ident("modalId").Req(),
          Ident("modalVersion"),
          Obj("workProduct", WorkProductRefSpec())
              .Req()
              .Doc(
                  "a full WorkProductRef, or {\"id\"[, \"version\"]} naming a recorded work event"),
          Ident("pipelineStage").Req(),
          Ident("mcpServerType"),
          Ident("reviewerId").Doc("who reviewed; teams have several reviewers"),
          Ident("repository").Doc(kRepositoryDoc),
          Obj("decision", DecisionSpec()),
          ArrOfObj("scores", DimensionScoreSpec()),
          Obj("freeText", FreeTextSpec()),
          Obj("comparison", ComparisonSpec()),
          ArrOfObj("annotations", AnnotationSpec()),
          Obj("confidence", ConfidenceSpec()),
          Obj("meta", MetaSpec()).Req(),
          Ident("override")
              .OneOf({"strong", "weak"})
              .Doc("seed 000 §9.3: strong preference (2x weight) or weak/unsure (0.5x)"),
          Num("_predictionDelta").Doc("enrichment: mean score - bubaScorePrediction"),
      })};
  return s;
}

const ObjectSpec& WorkSpec() {
  static const ObjectSpec s{
      "work", Common({
                  Obj("workProduct", WorkProductRefSpec()).Req(),
                  Ident("sessionId"),
                  Ident("pipelineStage"),
                  Ident("mcpServerType"),
                  Ident("priority").OneOf({"low", "normal", "high", "urgent"}),
                  Bool("experimental")
                      .Doc("seed 000 §9.4: spent from the exploration budget, "
                           "clearly marked"),
                  Ident("repository").Doc(kRepositoryDoc),
                  Ident("compareWith")
                      .Doc("seed 000 §6.4: the version of the same work product this one is an "
                           "alternative to; the review presents the two as an A/B comparison; "
                           "kaizen extension"),
                  Int("requiredReviews")
                      .Range(1, 100)
                      .Doc("how many reviewers must decide it before it leaves the queue "
                           "(default 1); kaizen extension"),
                  Bool("forReview")
                      .Doc("false: a prediction only (kaizen check without --submit), "
                           "not put in the review queue; default true; kaizen "
                           "extension"),
              })};
  return s;
}

const ObjectSpec& OutcomeSpec() {
  static const ObjectSpec s{"outcome", Common({
                                           Ident("bead_id").Req(),
                                           Num("duration_ms").Req().Range(0, 1e15),
                                           Int("error_count").Req().Range(0, 1e9),
                                           Int("retry_count").Req().Range(0, 1e9),
                                           Bool("success").Req(),
                                           ArrOf("files_touched", JsonType::kString),
                                           Ident("strategy"),
                                           Ident("failure_mode"),
                                           Str("failure_details"),
                                           ArrOf("criteria", JsonType::kIdentifier),
                                           ArrOf("patterns", JsonType::kString),
                                           Str("description"),
                                       })};
  return s;
}

const ObjectSpec& ErrorSpec() {
  static const ObjectSpec s{
      "error", Common({
                   Ident("bead_id").Req(),
                   Ident("error_type")
                       .OneOf({"validation", "timeout", "conflict", "tool_failure", "unknown"}),
                   Str("message"),
                   Str("stack_trace"),
                   Ident("tool_name"),
                   Str("context"),
                   Uuid("resolves").Doc("the id of a recorded error this event marks resolved"),
               })};
  return s;
}

// Where an automatic signal came from (a repository, an agent, a report file): seed 001's
// RewardSignal names a commit, a task and a session only; scanners need a little more to be
// traceable. Open: any keys.
const ObjectSpec& RewardContextSpec() {
  static const ObjectSpec s{"context", {}, /*open=*/true};
  return s;
}

const ObjectSpec& RewardSpec() {
  static const ObjectSpec s{
      "reward",
      Common({
          Ident("signal_id"),
          Ident("commit_hash"),
          Ident("task_id"),
          Ident("session_id"),
          Ident("signal_type").Req(),
          Num("signal_value").Range(0, 1).Doc("normalized; computed from raw_value when absent"),
          Any("raw_value"),
          Num("baseline_seconds").Range(0, 1e12).Doc("time_efficiency: the baseline duration"),
          Ident("source").Req().OneOf({"automatic", "human", "agent"}),
          Num("confidence").Range(0, 1),
          Int("delay_days").Range(0, 1e6),
          Obj("context", RewardContextSpec())
              .Doc("where the signal came from (repo, agent, report); any keys"),
      })};
  return s;
}

const ObjectSpec& CorrectionContextSpec() {
  static const ObjectSpec s{"context", {}, /*open=*/true};
  return s;
}

const ObjectSpec& CorrectionSpec() {
  static const ObjectSpec s{
      "correction",
      Common({
          Ident("session_id").Req(),
          // seed 004: "Auto-classify or user selects": absent or "auto" stores the classifier's
          // proposal (text/correction_classifier.h) and marks it with _proposed_type.
          Ident("correction_type")
              .Doc("seed 004 taxonomy type, or a code category (`type_safety`, `naming`, "
                   "`error_handling`, `null_handling`, `dead_code`, `code_fix`); absent or "
                   "`auto`: the type proposed from the diff (and context.file) is stored"),
          Str("original").Req(),
          Str("corrected").Req(),
          Obj("context", CorrectionContextSpec()),
          Ident("user_id"),
          Ident("correction_method")
              .OneOf({"manual_edit", "rejection", "feedback_form", "human_edit"}),
          Ident("_category")
              .Doc("enrichment: the taxonomy group of correction_type (`content`, `style`, "
                   "`structural`, `domain:jseeker`, `domain:via`, `code`)"),
          Ident("_proposed_type")
              .Doc("enrichment: present when correction_type was proposed by the classifier, "
                   "not given (equal to it)"),
          Num("_proposed_confidence")
              .Range(0, 1)
              .Doc("enrichment: the classifier's confidence in _proposed_type"),
      })};
  return s;
}

const ObjectSpec& QualityMetricsSpec() {
  static const ObjectSpec s{"QualityMetrics",
                            {
                                Num("test_coverage").Range(0, 1),
                                Bool("tests_passing"),
                                Int("test_count").Range(0, 1e12),
                                Num("code_quality_score").Range(0, 1),
                                Int("complexity").Range(0, 1e12),
                                Num("duplications").Range(0, 1),
                                Num("security_score").Range(0, 1),
                                Int("vulnerabilities").Range(0, 1e12),
                                Num("type_coverage").Range(0, 1),
                                Int("type_errors").Range(0, 1e12),
                                Num("doc_coverage").Range(0, 1),
                                Num("overall_quality").Range(0, 1),
                                // seed 003's QualityEvaluator names three of them otherwise.
                                Num("code_quality")
                                    .Range(0, 1)
                                    .AliasOf("code_quality_score")
                                    .Doc("seed 003 QualityEvaluator's name of code_quality_score"),
                                Num("documentation")
                                    .Range(0, 1)
                                    .AliasOf("doc_coverage")
                                    .Doc("seed 003 QualityEvaluator's name of doc_coverage"),
                                Num("type_safety")
                                    .Range(0, 1)
                                    .AliasOf("type_coverage")
                                    .Doc("seed 003 QualityEvaluator's name of type_coverage"),
                            }};
  return s;
}

const ObjectSpec& LoopSpec() {
  static const ObjectSpec s{
      "loop", Common({
                  Ident("loop_id").Req(),
                  Int("iteration").Req().Range(0, 1e6),
                  Obj("metrics", QualityMetricsSpec()).Req().NonEmpty(),
                  Num("cost").Range(0, 1e12).Doc("dollars spent on this iteration"),
                  Num("elapsed_seconds").Range(0, 1e12),
                  Str("feedback").Doc("the feedback text handed to the next refinement"),
              })};
  return s;
}

const ObjectSpec& AdminSpec() {
  static const ObjectSpec s{
      "admin",
      Common({
          Ident("action").Req().OneOf({"rule_audit", "consent", "deletion_request", "dismiss",
                                       "submit", "reserve", "release", "skip", "ask", "answer"}),
          Ident("rule_id").Doc("rule_audit: the rule or correction pattern audited"),
          Ident("verdict").OneOf({"confirm", "retire"}).Doc("rule_audit"),
          Ident("user_id").Doc("consent; deletion_request"),
          Bool("learning_mode").Doc("consent: on or off for user_id"),
          Ident("session_id").Doc("deletion_request; skip: the session whose rating was skipped"),
          Ident("task_id").Doc("skip: the task whose rating was skipped"),
          Ident("question_id")
              .Doc("ask and answer: the question bank's id of the question (seed 001 tier 3)"),
          Str("question")
              .Doc("skip: the question a person was asked and left unanswered (seed 001: a skip is "
                   "counted against the ratings given, the feedback response rate); ask and "
                   "answer: the question's words"),
          Ident("work_id").Doc(
              "dismiss: the work product taken out of the review queue, undecided; submit: one "
              "recorded as a prediction only, put in the queue"),
          Ident("work_version")
              .Doc("dismiss: its version (absent: every version); submit; reserve and release: "
                   "the version (absent: every pending version)"),
          Ident("reviewerId").Doc("who took the action; reserve and release: whose reservation"),
          Int("minutes").Range(1, 1440).Doc(
              "reserve: how long the item stays reserved for reviewerId unless decided or "
              "released first (default 30)"),
          Str("note").Doc("answer: what the person answered (PII redacted at ingest)"),
      })};
  return s;
}

// A person's words to an agent during its session, caught by `kaizen hook` when they judge the
// agent's last turn (issue 28): evidence for rules, never a review decision.
const ObjectSpec& PromptContextSpec() {
  static const ObjectSpec s{"context", {}, /*open=*/true};
  return s;
}

const ObjectSpec& PromptSpec() {
  static const ObjectSpec s{
      "prompt",
      Common({
          Ident("session_id").Req().Doc("the agent's session"),
          Str("text").Req().Doc("the person's words, as typed (PII redacted at ingest)"),
          Ident("agent").Doc("the agent that heard it, e.g. claude-code, codex, goose"),
          Str("project").Doc("the repository or directory the session worked in"),
          Obj("context", PromptContextSpec()).Doc("where it was said (cwd, transcript); any keys"),
          Ident("_judgement")
              .OneOf({"correction", "instruction", "positive", "none"})
              .Doc("enrichment: what the words say of the agent's last turn "
                   "(text/prompt_judgement.h)"),
          Str("_instruction")
              .Doc("enrichment: what to do, without the opening verdict (\"no, use pnpm\" -> "
                   "\"use pnpm\")"),
          ArrOf("_extractedThemes", JsonType::kString).Doc("enrichment: themes of the words"),
          Num("_sentiment").Range(-1, 1).Doc("enrichment"),
      })};
  return s;
}

}  // namespace

std::string_view JsonTypeName(JsonType type) {
  switch (type) {
    case JsonType::kString:
      return "string";
    case JsonType::kIdentifier:
      return "non-empty string";
    case JsonType::kNumber:
      return "number";
    case JsonType::kInteger:
      return "integer";
    case JsonType::kBool:
      return "boolean";
    case JsonType::kObject:
      return "object";
    case JsonType::kArray:
      return "array";
    case JsonType::kAny:
      return "any JSON value";
    case JsonType::kTimestamp:
      return "ISO 8601 timestamp";
    case JsonType::kUuid:
      return "UUID";
  }
  return "?";
}

namespace {

// Whether the first and the last sizeof(Word) bytes of p and q are equal (for n of one to two
// words, that is all of them).
template <typename Word>
bool SameEnds(const char* p, const char* q, size_t n) {
  Word x, y, u, v;
  std::memcpy(&x, p, sizeof x);
  std::memcpy(&y, q, sizeof y);
  std::memcpy(&u, p + n - sizeof u, sizeof u);
  std::memcpy(&v, q + n - sizeof v, sizeof v);
  return ((x ^ y) | (u ^ v)) == 0;
}

// a == b for field names, without a call to memcmp for each: the validator compares every key of
// every event, and names are short.
bool SameName(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  if (n >= 8 && n <= 16) return SameEnds<uint64_t>(a.data(), b.data(), n);
  if (n >= 4 && n < 8) return SameEnds<uint32_t>(a.data(), b.data(), n);
  return n == 0 || std::memcmp(a.data(), b.data(), n) == 0;  // memcmp may not be given null
}

}  // namespace

int ObjectSpec::IndexOf(std::string_view field, size_t from) const {
  const size_t n = fields.size();
  from = from < n ? from : 0;
  for (size_t i = from; i < n; ++i) {
    if (SameName(fields[i].name, field)) return static_cast<int>(i);
  }
  for (size_t i = 0; i < from; ++i) {
    if (SameName(fields[i].name, field)) return static_cast<int>(i);
  }
  return -1;
}

const FieldSpec* ObjectSpec::Find(std::string_view field) const {
  int i = IndexOf(field);
  return i < 0 ? nullptr : &fields[static_cast<size_t>(i)];
}

const std::vector<std::string_view>& QualityDimensions() {
  static const std::vector<std::string_view> dims = {"code-quality",
                                                     "design-aesthetics",
                                                     "design-ux",
                                                     "test-coverage",
                                                     "documentation",
                                                     "architecture",
                                                     "error-handling",
                                                     "performance",
                                                     "security",
                                                     "creativity",
                                                     "completeness",
                                                     "naming",
                                                     "dx"};
  return dims;
}

const ObjectSpec& WorkProductRefSpec() {
  static const ObjectSpec s{
      "WorkProductRef",
      {
          Ident("type").Req().OneOf({"mcp-server", "code-module", "design", "test-suite",
                                     "documentation", "pipeline-config"}),
          Ident("id").Req(),
          Ident("version").Req(),
          Str("path"),
          Str("summary").Req(),
          Num("bubaConfidence").Req().Range(0, 1),
          Num("bubaScorePrediction").Range(1, 10),
          Obj("generationContext", GenerationContextSpec()).Req(),
          // kaizen extensions (issue 29): what the agent changed in this version, so a review
          // shows that change and never a later commit's.
          Ident("commit").Doc(
              "the agent's change as git names it: a commit, a range BASE..HEAD, or "
              "BASE...HEAD from their merge base (a pull request's change); kaizen extension"),
          Str("diff").Doc(
              "the agent's change as a unified diff, recorded with the version (kaizen check "
              "and the Stop hook record the working tree's); kaizen extension"),
      }};
  return s;
}

const ObjectSpec& SchemaFor(EventKind kind) {
  switch (kind) {
    case EventKind::kFeedback:
      return FeedbackSpec();
    case EventKind::kWork:
      return WorkSpec();
    case EventKind::kOutcome:
      return OutcomeSpec();
    case EventKind::kError:
      return ErrorSpec();
    case EventKind::kReward:
      return RewardSpec();
    case EventKind::kCorrection:
      return CorrectionSpec();
    case EventKind::kLoop:
      return LoopSpec();
    case EventKind::kAdmin:
      return AdminSpec();
    case EventKind::kPrompt:
      return PromptSpec();
  }
  return FeedbackSpec();
}

std::string_view CanonicalMetric(std::string_view name) {
  const FieldSpec* f = QualityMetricsSpec().Find(name);
  return f != nullptr && !f->alias_of.empty() ? f->alias_of : name;
}

}  // namespace kaizen::model
