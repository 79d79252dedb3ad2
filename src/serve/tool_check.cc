// The tools that check an agent's output given inline: self_check (the machine checks and review
// prediction of `kaizen check`, seed 000 §6.1/§6.2) and validate_output (the correction patterns
// of `kaizen validate`, seed 004).
#include <fmt/format.h>

#include <algorithm>

#include "base/json_writer.h"
#include "checks/output_validation.h"
#include "checks/self_check_run.h"
#include "model/timestamp.h"
#include "serve/tool_args.h"
#include "serve/tools_internal.h"

namespace kaizen::serve::internal {
namespace {

using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;

// ---- self_check ----

const ObjectSpec& FileSpec() {
  static const ObjectSpec spec{
      "file",
      {ArgField("path", JsonType::kIdentifier)
           .Req()
           .Doc("the file's path in the project, e.g. src/api.ts: the learned checks pick files by "
                "it"),
       ArgField("text", JsonType::kString).Req().Doc("the file's full content")}};
  return spec;
}

const ObjectSpec& SelfCheckArgs() {
  static const ObjectSpec spec{
      "self_check arguments",
      {ArgField("task_type", JsonType::kIdentifier)
           .Req()
           .Doc("the task type (mcpServerType) the work is for, e.g. api-client"),
       [] {
         FieldSpec f{"files", JsonType::kArray};
         f.element = JsonType::kObject;
         f.object = &FileSpec();
         return f.Req().NonEmpty().Doc("the files of the work, each with its path and content");
       }(),
       ArgField("artifact_id", JsonType::kIdentifier)
           .Doc("the work product id to record (default: derived from the paths)"),
       ArgField("type", JsonType::kIdentifier)
           .OneOf({"mcp-server", "code-module", "design", "test-suite", "documentation",
                   "pipeline-config"})
           .Doc("the work product type (default code-module)"),
       ArgField("record", JsonType::kBool)
           .Doc("record the prediction as a work event, so the review that follows calibrates it "
                "(default false)"),
       ArgField("submit", JsonType::kBool)
           .Doc("with record: also put the version in the review queue (default false: a "
                "prediction only, as kaizen check without --submit)")}};
  return spec;
}

// As checks::CollectFiles treats files on disk: over 1 MiB, or a NUL byte in the first 8 KiB
// (binary), and the file is skipped and listed.
void CollectInline(simdjson::dom::array given, std::vector<checks::CheckedFile>* files,
                   std::vector<checks::SkippedFile>* skipped) {
  for (simdjson::dom::element f : given) {
    const std::string path(ArgString(f, "path"));
    const std::string_view text = ArgString(f, "text");
    if (text.size() > checks::kMaxCheckedFileBytes) {
      skipped->push_back({path, fmt::format("{} bytes, over 1 MiB", text.size())});
    } else if (text.substr(0, 8192).find('\0') != std::string_view::npos) {
      skipped->push_back({path, "binary (a NUL byte)"});
    } else {
      files->push_back({path, path, std::string(text)});
    }
  }
}

std::string SelfCheckText(const learn::SelfCheckResult& r, size_t files, const std::string& note) {
  std::string out = fmt::format("Self-check of {} file(s) for task type {}: ", files, r.task_type);
  out += r.ready_for_review ? "ready for review" : "self-review needed";
  out += fmt::format(" (decided by {}).\n", r.decided_by);
  for (const std::string& why : r.reasons) out += "- " + why + "\n";
  if (r.decided_by == "second_pass_due") {
    out +=
        "Review the work once more, then call again: the same files (recorded) go through, "
        "changed ones get their own first pass.\n";
  } else if (r.decided_by == "second_pass_done") {
    out += "Second self-review pass done on these same files:";
    for (const std::string& t : r.triggers) out += " " + t + ";";
    out += " ready, with the prediction recorded.\n";
  }
  for (const auto& v : r.violations) {
    out += fmt::format("FAIL {} [{}]: {}\n", v.rule, v.severity, v.description);
    for (const auto& f : v.findings) {
      out += fmt::format("  {}{}\n", f.location.empty() ? "" : f.location + ": ", f.detail);
    }
    if (!v.suggestion.empty()) out += fmt::format("  fix: {}\n", v.suggestion);
  }
  out += fmt::format("Predicted score {:.1f}/10, confidence {:.2f} (autonomy level {}).\n", r.score,
                     r.confidence, r.autonomy_level);
  if (!note.empty()) out += note + "\n";
  return out;
}

Status SelfCheck(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  learn::SelfCheckConfig config;
  std::vector<checks::CheckSpec> specs;
  if (Status s = checks::LoadChecks(state->home(), &specs, &config); !s.ok()) {
    if (s.code() != StatusCode::kInvalidArgument) return s;
    Refuse("the home's check configuration is invalid", {{"config/checks.json", s.message()}},
           result);
    return Status::Ok();
  }
  // The files exist only as text here: command checks need them on disk, so only the regex
  // checks run, and a rule whose checks are all commands is listed as not machine-checked.
  specs.erase(std::remove_if(specs.begin(), specs.end(),
                             [](const checks::CheckSpec& s) { return !s.command.empty(); }),
              specs.end());
  std::vector<checks::CheckedFile> files;
  std::vector<checks::SkippedFile> skipped;
  CollectInline(args["files"].get_array().value_unsafe(), &files, &skipped);

  // The self-check reads the log as `kaizen check` does (from the learned-state checkpoint and
  // the log past it), at the live clock.
  home::Common c;
  c.home = state->home();
  c.now = model::FormatUtc(state->Now());
  home::LearnedState loaded;
  KZ_RETURN_IF_ERROR(checks::LoadSelfCheckState(c, &loaded));
  const learn::ReviewHistory& history = loaded.learner->review_history();
  const std::string task_type(ArgString(args, "task_type"));
  checks::PredictionWork work;
  work.task_type = task_type;
  if (std::string_view type = ArgString(args, "type"); !type.empty()) work.type = type;
  for (const checks::CheckedFile& f : files) work.paths.push_back(f.path);
  checks::ArtifactIds(files, &work.id, &work.version);
  if (std::string_view id = ArgString(args, "artifact_id"); !id.empty()) work.id = id;
  const learn::SelfCheckResult r =
      checks::SelfCheckFiles(*loaded.learner, history, loaded.now_ms, task_type, specs, files,
                             config, work.id, work.version);

  bool record = false;
  if (args["record"].get_bool().get(record) != simdjson::SUCCESS) record = false;
  bool submit = false;
  if (args["submit"].get_bool().get(submit) != simdjson::SUCCESS) submit = false;
  work.for_review = submit;
  bool stored = false;
  std::string event_id, note = record ? "" : "not recorded (record: false)";
  if (record) {
    SubmitResult submitted;
    KZ_RETURN_IF_ERROR(state->Submit(checks::PredictionWorkEventJson(work, r, files.size()),
                                     model::EventKind::kWork, &submitted));
    const LineOutcome& line = submitted.lines.at(0);
    stored = line.stored;
    event_id = line.id;
    if (line.skipped) note = "not recorded: " + line.skip_reason;
    for (const ingest::FieldError& e : line.errors) {
      // The same files checked again: the earlier prediction stands (as `kaizen check`).
      if (e.path == "workProduct.version") {
        note = "this version was already recorded; the earlier prediction stands";
      }
    }
    if (!stored && !line.skipped && note.empty()) {
      Refuse("the prediction's work event was refused", line.errors, result);
      return Status::Ok();
    }
  }
  const learn::CompareAdvice compare =
      loaded.learner->AdviseComparison({std::string(task_type), r.raw_confidence, 1});
  result->json =
      checks::SelfCheckJson(r, compare, files, skipped, work.id, work.version, stored, event_id,
                            stored ? "recorded as work event " + event_id : note);
  result->text =
      SelfCheckText(r, files.size(), stored ? "Recorded as work event " + event_id : note);
  return Status::Ok();
}

// ---- validate_output ----

const ObjectSpec& ValidateArgs() {
  static const ObjectSpec spec{
      "validate_output arguments",
      {ArgField("text", JsonType::kString).Req().Doc("the output to check, e.g. a draft reply"),
       ArgField("min_confidence", JsonType::kNumber)
           .Range(0, 1)
           .Doc("enforce patterns at or above this confidence (default "
                "corrections.enforce_min_confidence)")}};
  return spec;
}

Status ValidateOutput(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  const std::string_view text = ArgString(args, "text");
  std::optional<double> min;
  double d;
  if (args["min_confidence"].get_double().get(d) == simdjson::SUCCESS) min = d;
  int64_t i;
  if (!min && args["min_confidence"].get_int64().get(i) == simdjson::SUCCESS) min = double(i);
  state->Read([&](const learn::Learner& learner, int64_t) {
    const learn::CorrectionPatternLearner& learned = learner.corrections();
    const double threshold = min.value_or(learned.config().enforce_min_confidence);
    const checks::OutputValidation v = checks::ValidateOutput(learner, text, threshold);
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "clean");
    w.Bool(v.violations.empty());
    checks::WriteJsonMembers(w, threshold, v);
    w.EndObject();
    result->json = b.GetString();
    result->text = checks::OutputValidationText("output", threshold, learned.Patterns().size(), v);
  });
  return Status::Ok();
}

}  // namespace

std::vector<ToolDef> CheckTools() {
  std::vector<ToolDef> tools;
  {
    ToolDef d;
    d.spec.name = "self_check";
    d.spec.description =
        "Before submitting work for review, run the learned rules' checks on the files (given "
        "inline: path and text) and get the violations, the predicted reviewer score and a "
        "calibrated confidence; readyForReview and decidedBy say whether to submit "
        "(ready, second_pass_done) or not yet (violation: fix it; second_pass_due: low "
        "confidence or score asks one more self-review pass, then the same files go through). "
        "With record: true the prediction is stored as a work event, which is how a later call "
        "knows the version had its pass.";
    d.spec.writes = true;  // when asked to record
    d.args = &SelfCheckArgs();
    d.run = SelfCheck;
    tools.push_back(std::move(d));
  }
  {
    ToolDef d;
    d.spec.name = "validate_output";
    d.spec.description =
        "Check a text you are about to deliver against the correction patterns learned from "
        "humans' edits of your past outputs (seed 004); returns each violation with its line "
        "and the IMPORTANT: hints to follow when you rewrite it.";
    d.args = &ValidateArgs();
    d.run = ValidateOutput;
    tools.push_back(std::move(d));
  }
  return tools;
}

}  // namespace kaizen::serve::internal
