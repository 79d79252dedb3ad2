// The tools that only read the learned state (LiveState::Read): error context, task context,
// hints, the review sampling decision and the refinement-loop decision.
#include <fmt/format.h>

#include "base/json_writer.h"
#include "learn/outcomes/loop_control.h"
#include "model/schema.h"
#include "render/context.h"
#include "render/hints.h"
#include "serve/tool_args.h"
#include "serve/tools_internal.h"

namespace kaizen::serve::internal {
namespace {

using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;

std::optional<double> NumberArg(simdjson::dom::element e) {
  double d;
  if (e.get_double().get(d) == simdjson::SUCCESS) return d;
  int64_t i;
  if (e.get_int64().get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  uint64_t u;
  if (e.get_uint64().get(u) == simdjson::SUCCESS) return static_cast<double>(u);
  return std::nullopt;
}

bool BoolArg(simdjson::dom::element args, std::string_view key) {
  bool b = false;
  return args[key].get_bool().get(b) == simdjson::SUCCESS && b;
}

// ---- get_error_context (seed 002 "Generating Error Context") ----

// The call's `project` argument, else the server's (LiveOptions::project).
std::string ProjectArg(LiveState* state, simdjson::dom::element args) {
  simdjson::dom::element given;
  if (args["project"].get(given) == simdjson::SUCCESS) {
    return std::string(ArgString(args, "project"));
  }
  return state->project();
}

const ObjectSpec& ErrorContextArgs() {
  static const ObjectSpec spec{
      "get_error_context arguments",
      {ArgField("bead_id", JsonType::kIdentifier).Req().Doc("the subtask (bead) to retry"),
       ArgField("include_resolved", JsonType::kBool)
           .Doc("also list resolved errors (default false)")}};
  return spec;
}

Status ErrorContext(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  const std::string_view bead = ArgString(args, "bead_id");
  const bool resolved = BoolArg(args, "include_resolved");
  state->Read([&](const learn::Learner& learner, int64_t) {
    const learn::ErrorAccumulator& errors = learner.errors();
    const std::string markdown = errors.ErrorContext(bead, resolved);
    const learn::ErrorStats stats = errors.Stats(bead);
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "bead_id");
    base::Str(w, bead);
    base::Key(w, "total");
    w.Int64(stats.total);
    base::Key(w, "unresolved");
    w.Int64(stats.unresolved);
    base::Key(w, "by_type");
    w.StartObject();
    for (const auto& [type, n] : stats.by_type) {
      base::Key(w, type);
      w.Int64(n);
    }
    w.EndObject();
    base::Key(w, "context");
    base::Str(w, markdown);
    w.EndObject();
    result->json = b.GetString();
    result->text =
        markdown.empty() ? fmt::format("No errors to show for bead {}.", bead) : markdown;
  });
  return Status::Ok();
}

// ---- get_context (seed 000 §5.3, as `kaizen context`) ----

const ObjectSpec& ContextArgs() {
  static const FieldSpec dimension = [] {
    FieldSpec f{"dimensions", JsonType::kArray};
    f.element = JsonType::kIdentifier;
    f.one_of = model::QualityDimensions();
    return f.Doc("the quality dimensions the task is judged on");
  }();
  static const ObjectSpec spec{
      "get_context arguments",
      {ArgField("server_type", JsonType::kIdentifier).Doc("the task's mcpServerType, e.g. shopify"),
       ArgField("work_type", JsonType::kIdentifier).Doc("the work product type, e.g. mcp-server"),
       ArgField("stage", JsonType::kIdentifier).Doc("the pipeline stage"), dimension,
       ArgField("project", JsonType::kString)
           .Doc("the project the task is in (a repository name or directory): its rules besides "
                "the global ones; default: the directory the server was started in"),
       ArgField("budget_tokens", JsonType::kInteger)
           .Range(1, 10'000'000)
           .Doc("token budget (tokens = bytes / 4); default memory.context_budget_tokens")}};
  return spec;
}

Status Context(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  render::ContextQuery query;
  query.server_type = ArgString(args, "server_type");
  query.work_type = ArgString(args, "work_type");
  query.stage = ArgString(args, "stage");
  query.project = ProjectArg(state, args);
  simdjson::dom::array dims;
  if (args["dimensions"].get_array().get(dims) == simdjson::SUCCESS) {
    for (simdjson::dom::element d : dims) query.dimensions.emplace_back(d.get_string().value());
  }
  std::optional<double> budget_arg;
  simdjson::dom::element b;
  if (args["budget_tokens"].get(b) == simdjson::SUCCESS) budget_arg = NumberArg(b);
  state->Read([&](const learn::Learner& learner, int64_t now_ms) {
    const size_t budget = budget_arg
                              ? static_cast<size_t>(*budget_arg)
                              : static_cast<size_t>(learner.config().memory.context_budget_tokens);
    render::ContextResult context = render::Context(learner, query, now_ms);
    render::ContextResult copy = context;
    result->text = render::RenderContext(&context, render::ContextFormat::kMarkdown, budget);
    result->json = render::RenderContext(&copy, render::ContextFormat::kJson, budget);
    while (!result->json.empty() && result->json.back() == '\n') result->json.pop_back();
  });
  return Status::Ok();
}

// ---- get_hints (seed 000 §8.2) ----

const ObjectSpec& HintsArgs() {
  static const ObjectSpec spec{
      "get_hints arguments",
      {ArgField("project", JsonType::kString)
           .Doc("the project whose rules to include besides the global ones (a repository name "
                "or directory); default: the directory the server was started in")}};
  return spec;
}

Status Hints(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  const std::string project = ProjectArg(state, args);
  state->Read([&](const learn::Learner& learner, int64_t now_ms) {
    const render::HintsInput input = render::HintsInputFrom(learner, now_ms, project);
    result->text = render::HintsSection(input);
    int64_t active = 0;
    for (const learn::LearnedRule& r : input.rules)
      active += r.status == learn::RuleStatus::kActive;
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "feedback_events");
    w.Int64(input.feedback_events);
    base::Key(w, "active_rules");
    w.Int64(active);
    base::Key(w, "hints");
    base::Str(w, result->text);
    w.EndObject();
    result->json = b.GetString();
  });
  return Status::Ok();
}

// ---- should_review (seed 000 §6.3) ----

const ObjectSpec& ShouldReviewArgs() {
  static const ObjectSpec spec{"should_review arguments",
                               {ArgField("task_type", JsonType::kIdentifier)
                                    .Req()
                                    .Doc("the task type (mcpServerType) of the output"),
                                ArgField("artifact_id", JsonType::kIdentifier)
                                    .Req()
                                    .Doc("the output's work product id: the same id always gets "
                                         "the same answer at a level")}};
  return spec;
}

Status ShouldReview(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  const std::string_view task_type = ArgString(args, "task_type");
  const std::string_view artifact = ArgString(args, "artifact_id");
  state->Read([&](const learn::Learner& learner, int64_t) {
    const learn::AutonomyTracker& autonomy = learner.autonomy();
    const int level = autonomy.Level(task_type);
    const bool review = autonomy.ShouldReview(artifact, level);
    const double rate = learner.config().autonomy.ReviewRate(level);
    std::string task_class = "escalate";  // §3.4: a novel task type
    for (const learn::TaskAutonomy& t : autonomy.Result()) {
      if (t.task_type == task_type) task_class = learn::TaskClassName(t.task_class);
    }
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "task_type");
    base::Str(w, task_type);
    base::Key(w, "artifact_id");
    base::Str(w, artifact);
    base::Key(w, "level");
    w.Int(level);
    base::Key(w, "review_rate");
    base::Num(w, rate);
    base::Key(w, "task_class");
    base::Str(w, task_class);
    base::Key(w, "should_review");
    w.Bool(review);
    w.EndObject();
    result->json = b.GetString();
    result->text = fmt::format(
        "{}: task type {} is at autonomy level {} (reviews {:.0f}% of outputs, class {}); "
        "this output {}.",
        artifact, task_type, level, rate * 100, task_class,
        review ? "needs human review" : "may skip review (not sampled)");
  });
  return Status::Ok();
}

// ---- should_compare (seed 000 §6.4) ----

const ObjectSpec& ShouldCompareArgs() {
  static const ObjectSpec spec{
      "should_compare arguments",
      {ArgField("task_type", JsonType::kIdentifier)
           .Req()
           .Doc("the task type (mcpServerType) of the work"),
       ArgField("confidence", JsonType::kNumber)
           .Range(0, 1)
           .Doc("the agent's raw confidence in its approach; calibrated before it is compared "
                "with 65%"),
       ArgField("approaches", JsonType::kInteger)
           .Range(1, 100)
           .Doc("how many valid approaches the agent sees (2+: compare; default 1)")}};
  return spec;
}

Status ShouldCompare(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  learn::CompareQuery query;
  query.task_type = ArgString(args, "task_type");
  simdjson::dom::element v;
  if (args["confidence"].get(v) == simdjson::SUCCESS) query.confidence = NumberArg(v);
  if (args["approaches"].get(v) == simdjson::SUCCESS) {
    query.approaches = static_cast<int64_t>(NumberArg(v).value_or(1));
  }
  state->Read([&](const learn::Learner& learner, int64_t) {
    const learn::CompareAdvice advice = learner.AdviseComparison(query);
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    learn::WriteJson(w, advice);
    result->json = b.GetString();
    result->text = advice.compare
                       ? fmt::format(
                             "Make two versions and present them as an A/B comparison (seed 000 "
                             "§6.4): {}. Record the second with compareWith set to the first's "
                             "version.",
                             fmt::join(advice.reasons, "; "))
                       : fmt::format(
                             "One version is enough for {}: no A/B trigger (confidence, "
                             "approaches, mixed reviews) fired.",
                             query.task_type);
  });
  return Status::Ok();
}

// ---- loop_decide (seed 003 orchestrator: HALT / CONTINUE / ABORT) ----

const ObjectSpec& IterationSpec() {
  static const ObjectSpec spec{
      "loop iteration",
      {ArgField("iteration", JsonType::kInteger)
           .Range(0, 1e9)
           .Doc("the iteration's number, from 1"),
       [] {
         FieldSpec f = ArgField("metrics", JsonType::kObject);
         f.object = model::SchemaFor(model::EventKind::kLoop).Find("metrics")->object;
         return f.Req().NonEmpty();
       }()
           .Doc("the iteration's QualityMetrics"),
       ArgField("cost", JsonType::kNumber).Range(0, 1e12).Doc("dollars spent on it"),
       ArgField("elapsed_seconds", JsonType::kNumber).Range(0, 1e12),
       ArgField("feedback", JsonType::kString).Doc("the feedback handed to the next refinement")}};
  return spec;
}

const ObjectSpec& LoopArgs() {
  static const ObjectSpec spec{
      "loop_decide arguments", {[] {
        FieldSpec f{"iterations", JsonType::kArray};
        f.element = JsonType::kObject;
        f.object = &IterationSpec();
        return f.Req().NonEmpty().Doc("the loop's iterations so far, in the order they ran");
      }()}};
  return spec;
}

void ReadMetrics(simdjson::dom::object m, model::LoopMetricsView* v) {
  for (auto [name, value] : m) {
    if (value.is_null()) continue;
    const std::string_view key = model::CanonicalMetric(name);
    std::optional<double> d = NumberArg(value);
    if (key == "tests_passing") {
      v->tests_passing = value.get_bool().value_unsafe();
    } else if (key == "test_coverage") {
      v->test_coverage = d;
    } else if (key == "code_quality_score") {
      v->code_quality_score = d;
    } else if (key == "security_score") {
      v->security_score = d;
    } else if (key == "type_coverage") {
      v->type_coverage = d;
    } else if (key == "doc_coverage") {
      v->doc_coverage = d;
    } else if (key == "overall_quality") {
      v->overall_quality = d;
    } else if (key == "duplications") {
      v->duplications = d;
    } else if (d) {
      const auto n = static_cast<int64_t>(*d);
      if (key == "test_count") v->test_count = n;
      if (key == "complexity") v->complexity = n;
      if (key == "vulnerabilities") v->vulnerabilities = n;
      if (key == "type_errors") v->type_errors = n;
    }
  }
}

Status LoopDecide(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  std::vector<learn::LoopIteration> history;
  // A named array: value_unsafe() of a temporary result would dangle in the range-for.
  simdjson::dom::array iterations;
  if (args["iterations"].get_array().get(iterations) != simdjson::SUCCESS) {
    return Internal("loop_decide: iterations is not an array after the argument check");
  }
  for (simdjson::dom::element it : iterations) {
    learn::LoopIteration x;
    simdjson::dom::element v;
    if (it["iteration"].get(v) == simdjson::SUCCESS && !v.is_null()) {
      x.iteration = static_cast<int64_t>(NumberArg(v).value_or(0));
    } else {
      x.iteration = static_cast<int64_t>(history.size()) + 1;  // seed 003 counts from 1
    }
    if (it["metrics"].get(v) == simdjson::SUCCESS && v.is_object()) {
      ReadMetrics(v.get_object().value_unsafe(), &x.metrics);
    }
    if (it["cost"].get(v) == simdjson::SUCCESS && !v.is_null()) x.cost = *NumberArg(v);
    if (it["elapsed_seconds"].get(v) == simdjson::SUCCESS && !v.is_null()) {
      x.elapsed_seconds = *NumberArg(v);
    }
    x.feedback = ArgString(it, "feedback");
    history.push_back(std::move(x));
  }
  learn::LoopConfig config;
  state->Read([&](const learn::Learner& learner, int64_t) { config = learner.config().loop; });
  // An iteration that measured none of the six has no quality; reading it as 0 would decide on
  // a number nobody measured.
  std::vector<ingest::FieldError> unmeasured;
  for (size_t i = 0; i < history.size(); ++i) {
    if (learn::Measured(history[i].metrics, config) != 0) continue;
    unmeasured.push_back(
        {fmt::format("iterations[{}].metrics", i),
         fmt::format("no metric Q(HALT) weighs; missing: {} (give at least one, weighted above 0 "
                     "in loop.weight_*)",
                     learn::MetricNames(learn::kAllHaltMetrics))});
  }
  if (!unmeasured.empty()) {
    Refuse("an iteration measured none of the Q(HALT) metrics, so it has no quality",
           std::move(unmeasured), result);
    return Status::Ok();
  }
  const learn::LoopDecision d = learn::Decide(history, config);
  const learn::MeasuredMetrics measured = learn::Measured(history.back().metrics, config);
  const learn::MeasuredMetrics missing = learn::kAllHaltMetrics & ~measured;
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "action");
  base::Str(w, learn::ActionName(d.action));
  base::Key(w, "reason");
  base::Str(w, d.reason);
  base::Key(w, "q_halt");
  base::Num(w, d.q_halt);
  base::Key(w, "q_continue");
  base::Num(w, d.q_continue);
  base::Key(w, "stagnation_detected");
  w.Bool(d.stagnation_detected);
  base::Key(w, "iterations");
  w.Uint64(history.size());
  // What the last iteration's q_halt rests on: seed 003's weights renormalized over these.
  auto names = [&](std::string_view key, learn::MeasuredMetrics set) {
    base::Key(w, key);
    w.StartArray();
    for (size_t i = 0; i < learn::kHaltMetricCount; ++i) {
      const auto m = static_cast<learn::HaltMetric>(i);
      if (learn::Has(set, m)) base::Str(w, learn::HaltMetricName(m));
    }
    w.EndArray();
  };
  names("measured", measured);
  names("missing", missing);
  w.EndObject();
  result->json = b.GetString();
  result->text = fmt::format(
      "{}{} after {} iteration(s): q_halt {:.3f}, q_continue {:.3f}{}{}{}",
      learn::ActionName(d.action), d.reason.empty() ? "" : " (" + d.reason + ")", history.size(),
      d.q_halt, d.q_continue,
      missing == 0 ? "" : "; not measured (left out of q_halt): ", learn::MetricNames(missing),
      d.stagnation_detected ? "; quality is stagnating" : "");
  return Status::Ok();
}

}  // namespace

std::vector<ToolDef> ReadTools() {
  std::vector<ToolDef> tools;
  tools.push_back(Def("get_error_context",
                      "Before retrying a subtask, get the markdown summary of the errors recorded "
                      "for its bead (seed 002 error context), grouped by type, to put at the top "
                      "of the retry prompt; with per-type counts.",
                      ErrorContextArgs(), ErrorContext));
  tools.push_back(Def("get_context",
                      "Before starting a task, get what reviewers taught kaizen about such tasks: "
                      "reviewer preferences, quality standards, matching learned rules, similar "
                      "past reviews and anti-patterns, trimmed to a token budget (markdown text; "
                      "JSON in structuredContent).",
                      ContextArgs(), Context));
  tools.push_back(Def("get_hints",
                      "Get the learned hints section (seed 000 §8.2 .goosehints): code and design "
                      "standards from active rules, quality gates, review presentation advice, the "
                      "pre-review checklist and anti-patterns.",
                      HintsArgs(), Hints));
  tools.push_back(Def("should_review",
                      "Ask whether an output of a task type needs human review, from the task "
                      "type's earned autonomy level (seed 000 §6.3) and a stable sample of the "
                      "artifact id: asking again gives the same answer.",
                      ShouldReviewArgs(), ShouldReview));
  tools.push_back(Def("should_compare",
                      "Ask whether to make two versions of a task's work and present them to the "
                      "reviewer as an A/B comparison instead of one (seed 000 §6.4): yes when "
                      "the calibrated confidence is under 65%, two valid approaches exist, or "
                      "reviewers were split on this task type.",
                      ShouldCompareArgs(), ShouldCompare));
  tools.push_back(Def("loop_decide",
                      "In a refinement loop, pass the iterations so far (QualityMetrics, cost, "
                      "seconds, feedback) and get HALT, CONTINUE or ABORT with the rule that "
                      "fired (seed 003 adaptive halting and loop guards). Q(HALT) weighs the "
                      "metrics given (the seed's weights renormalized over them); an iteration "
                      "with none of the six is refused, naming them.",
                      LoopArgs(), LoopDecide));
  return tools;
}

}  // namespace kaizen::serve::internal
