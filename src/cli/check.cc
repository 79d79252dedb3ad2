// `kaizen check PATH... --task-type T`: the pre-review self-check gate (seed 000 §6.1, §6.2).
// Runs the machine checks of every active learned rule on the files, predicts the reviewer's
// score and a calibrated confidence (learn/rules/self_check.h), and records that prediction as a
// `work` event through the ingest pipeline, so the review that follows closes the calibration loop.
// The event carries the agent's change (the working tree's diff, or --commit); it joins the review
// queue only with --submit: a check is the agent's own gate, run many times while it works.
// Exit 0: ready for review (decidedBy ready, or second_pass_done: a self-review trigger fired on
// a version checked before); 1: not yet (violation: a fixable major/critical violation;
// second_pass_due: confidence under check.confidence_threshold or predicted score under
// check.min_score on a version's first check); 2: usage or config; 3: the system failed.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "checks/machine_check.h"
#include "checks/self_check_run.h"
#include "cli/commands.h"
#include "cli/verbs.h"
#include "home/derived_files.h"
#include "home/learned_state.h"
#include "home/log_views.h"
#include "home/loop_store.h"
#include "ingest/ingestor.h"
#include "learn/reviews/review_queue.h"
#include "learn/rules/self_check.h"
#include "model/event_writer.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

constexpr size_t kMaxIdBytes = 256;  // the event model's identifier limit

// The event model's limit on an identifier, for the options recorded as one.
std::string AtMostIdBytes(const std::string& v) {
  return v.size() > kMaxIdBytes ? fmt::format("at most {} bytes", kMaxIdBytes) : std::string();
}

struct CheckOptions {
  std::vector<std::string> paths;
  std::string task_type, artifact_id, type = "code-module", commit, compare_with;
  bool no_record = false, submit = false;
  int64_t approaches = 1;
};

struct Recorded {
  bool stored = false;
  std::string event_id;
  std::string note;      // why it was not stored
  bool already = false;  // the version was recorded before (its prediction stands)
};

// Through the same pipeline as `kaizen record work`. A version already recorded (the same files,
// unchanged, checked again) is not an error: the earlier prediction stands.
Status Record(const Common& c, int64_t now_ms, const std::string& event, Recorded* out) {
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestOptions options;
  options.now_ms = now_ms;
  options.expected_kind = model::EventKind::kWork;
  std::vector<ingest::FieldError> errors;
  options.on_line = [&](const ingest::LineResult& r) {
    if (r.stored) {
      out->stored = true;
      out->event_id = r.id;
    } else {
      errors = r.errors;
    }
  };
  simdjson::padded_string input(event);
  ingest::IngestSummary summary;
  KZ_RETURN_IF_ERROR(
      ingestor.Ingest(std::string_view(input.data(), input.size()), options, &summary));
  for (const auto& note : ingestor.TakeNotes()) {
    fmt::print(stderr, "kaizen: recovered {}: {}\n", note.file, note.text);
  }
  if (out->stored) {
    (void)home::MarkDerivedStale(ingestor.log());
    return Status::Ok();
  }
  for (const auto& e : errors) {
    if (e.path == "workProduct.version") {
      out->note = "this version was already recorded; the earlier prediction stands";
      out->already = true;
      return Status::Ok();
    }
  }
  std::string why;
  for (const auto& e : errors) why += (why.empty() ? "" : "; ") + e.ToString();
  return InvalidArgument("the work event was refused: " + why);
}

void PrintText(const learn::SelfCheckResult& r, const std::vector<checks::CheckedFile>& files,
               const std::vector<checks::SkippedFile>& skipped, const std::string& id,
               const std::string& version, const Recorded& rec, bool submitted,
               const learn::SelfCheckConfig& config, const learn::CompareAdvice& compare) {
  fmt::print("kaizen check: {} file(s), task type {}\n", files.size(), r.task_type);
  if (!skipped.empty())
    fmt::print("  skipped {} file(s) (binary, over 1 MiB or unreadable)\n", skipped.size());
  if (r.rules_checked.empty() && r.violations.empty()) {
    fmt::print("  no active learned rule has a check that applies to these files\n");
  }
  for (const auto& v : r.violations) {
    fmt::print("  FAIL {} [{}]: {}\n", v.rule, v.severity, v.description);
    for (const auto& f : v.findings) {
      if (f.location.empty()) {
        fmt::print("       {}\n", f.detail);
      } else {
        fmt::print("       {}: {}\n", f.location, f.detail);
      }
    }
    if (!v.suggestion.empty()) {
      fmt::print("       fix{}: {}\n", v.auto_fixable ? " (auto-fixable)" : "", v.suggestion);
    }
  }
  for (const std::string& rule : r.rules_checked) {
    const bool failed = std::any_of(r.violations.begin(), r.violations.end(),
                                    [&](const auto& v) { return v.rule == rule; });
    if (!failed) fmt::print("  ok   {}\n", rule);
  }
  if (!r.rules_unchecked.empty()) {
    fmt::print("  not machine-checked (review by hand):");
    for (const std::string& rule : r.rules_unchecked) fmt::print(" {}", rule);
    fmt::print("\n");
  }
  fmt::print("predicted score {:.1f}/10 (min {:.1f}), confidence {:.2f} (raw {:.2f}, min {:.2f})\n",
             r.score, config.min_score, r.confidence, r.raw_confidence,
             config.confidence_threshold);
  std::string triggers;
  for (const std::string& t : r.triggers) triggers += (triggers.empty() ? "" : "; ") + t;
  if (r.decided_by == "second_pass_done") {
    fmt::print(
        "ready for review: second self-review pass done on this version ({}); the prediction is "
        "recorded for the review to calibrate\n",
        triggers);
  } else if (r.ready_for_review) {
    fmt::print("ready for review\n");
  } else {
    fmt::print("self-review needed:");
    for (size_t i = 0; i < r.reasons.size(); ++i) {
      fmt::print("{} {}", i ? ";" : "", r.reasons[i]);
    }
    fmt::print("\n");
    if (r.decided_by == "second_pass_due") {
      fmt::print(
          "  review the work once more; check it again unchanged to send it as it is (the "
          "prediction stays recorded), or changed for a new version's first pass\n");
    }
  }
  if (compare.compare) {
    fmt::print(
        "compare: make a second version and present both for review (seed 000 §6.4: {}); check "
        "it with --compare-with {}\n",
        fmt::join(compare.reasons, "; "), version);
  }
  fmt::print("artifact {} version {}", id, version);
  if (rec.stored) {
    fmt::print(" recorded as work event {}{}\n", rec.event_id,
               submitted ? ", submitted for review"
                         : " (a prediction; not in the review queue: --submit puts it there)");
  } else if (!rec.note.empty()) {
    fmt::print(" ({})\n", rec.note);
  } else {
    fmt::print(" (not recorded: --no-record)\n");
  }
}

// `--submit` of bytes checked before: their version was recorded then (a prediction only, or
// already submitted), so it goes into the queue as it was recorded, unless it is there already
// or has left it (reviewed, dismissed or superseded: reviewing it again is not what was asked).
Status SubmitCheckedBefore(const Common& c, int64_t now_ms, const std::string& id,
                           const std::string& version, Recorded* rec) {
  home::LearnedState queue;
  KZ_RETURN_IF_ERROR(home::LoadLearnedState(c, &queue, nullptr, learn::Parts{learn::Part::kQueue}));
  const auto& pending = queue.learner->queue().pending();
  auto it = pending.find(learn::ReviewQueue::Key(id, version));
  if (it == pending.end()) {
    rec->note =
        "recorded before, and no longer in the review queue (reviewed, dismissed or "
        "superseded): not queued again";
    return Status::Ok();
  }
  if (it->second.submitted) {
    rec->note = "recorded before; already in the review queue";
    return Status::Ok();
  }
  const std::string submit = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kAdmin);
    model::Field(w, model::EventField::action, "submit");
    model::Field(w, model::EventField::work_id, id);
    model::Field(w, model::EventField::work_version, version);
  });
  KZ_RETURN_IF_ERROR(home::StoreEvent(c, now_ms, model::EventKind::kAdmin, submit).status());
  rec->note = "recorded before; submitted for review now";
  return Status::Ok();
}

int CheckCommand(const Common& c, const CheckOptions& o) {
  if (o.task_type.empty() || o.task_type.size() > kMaxIdBytes) {
    fmt::print(stderr, "kaizen check: --task-type \"{}\" must be 1-{} bytes\n", o.task_type,
               kMaxIdBytes);
    return kExitUsage;
  }
  if (o.artifact_id.size() > kMaxIdBytes) {
    fmt::print(stderr, "kaizen check: --artifact-id is {} bytes; must be at most {}\n",
               o.artifact_id.size(), kMaxIdBytes);
    return kExitUsage;
  }
  learn::SelfCheckConfig config;
  std::vector<checks::CheckSpec> specs;
  if (Status s = LoadChecks(c.home, &specs, &config); !s.ok()) return home::FailVerb("check", s);
  std::vector<checks::CheckedFile> files;
  std::vector<checks::SkippedFile> skipped;
  if (Status s = CollectFiles(o.paths, &files, &skipped); !s.ok())
    return home::FailVerb("check", s);

  home::LearnedState state;
  if (Status s = checks::LoadSelfCheckState(c, &state); !s.ok()) return home::FailVerb("check", s);
  const learn::ReviewHistory& history = state.learner->review_history();
  home::WarnUnreadable(state.scan);
  std::string id, version;
  ArtifactIds(files, &id, &version);
  if (!o.artifact_id.empty()) id = o.artifact_id;
  const learn::SelfCheckResult result = SelfCheckFiles(
      *state.learner, history, state.now_ms, o.task_type, specs, files, config, id, version);
  const learn::CompareAdvice compare =
      state.learner->AdviseComparison({o.task_type, result.raw_confidence, o.approaches});
  Recorded rec;
  if (!o.no_record) {
    checks::PredictionWork work{o.type, o.task_type, o.paths, id, version};
    work.commit = o.commit;
    if (o.commit.empty()) {
      std::string note;
      work.diff = checks::WorkingTreeDiff(o.paths, &note);
      if (!note.empty()) fmt::print(stderr, "kaizen check: the change is not recorded: {}\n", note);
    }
    work.for_review = o.submit;
    work.compare_with = o.compare_with;
    Status s = Record(c, state.now_ms, PredictionWorkEventJson(work, result, files.size()), &rec);
    if (s.ok() && rec.already && o.submit)
      s = SubmitCheckedBefore(c, state.now_ms, id, version, &rec);
    if (!s.ok()) {
      fmt::print(stderr, "kaizen check: {}\n", s.message());
      return kExitSystem;
    }
  }
  if (c.json) {
    fmt::print("{}\n", SelfCheckJson(result, compare, files, skipped, id, version, rec.stored,
                                     rec.event_id, rec.note));
  } else {
    PrintText(result, files, skipped, id, version, rec, o.submit, config, compare);
  }
  return result.ready_for_review ? kExitOk : kExitRejected;
}

}  // namespace

Verb AddCheckVerb(CLI::App& app, Common& c) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand(
      "check",
      "the pre-review self-check: run the learned rules' checks on files, predict the "
      "review, record the prediction");
  sub->footer(
      "Exit status: 0 ready for review; 1 not yet: a fixable major or critical violation "
      "(decidedBy violation), or a version's first check with calibrated confidence under "
      "check.confidence_threshold (seed 000 §3.1: 0.60) or predicted score under check.min_score "
      "(§8.2: 6.5) (second_pass_due: self-review once more; checking the same bytes again lets "
      "them through as second_pass_done, the prediction recorded); 2 usage or config; 3 the "
      "system failed.\n");
  sub->add_option("PATH", o->paths, "files or directories to check")->required();
  sub->add_option("--task-type", o->task_type,
                  "the task type (mcpServerType) the work is for, e.g. api-client")
      ->required();
  sub->add_option("--artifact-id", o->artifact_id,
                  "the work product id to record (default: derived from the paths)");
  sub->add_option("--type", o->type, "the work product type (default code-module)")
      ->check(CLI::IsMember({"mcp-server", "code-module", "design", "test-suite", "documentation",
                             "pipeline-config"}));
  CLI::Option* submit =
      sub->add_flag("--submit", o->submit,
                    "put the checked version in the review queue (without it the prediction is "
                    "recorded, and the queue is left alone)");
  sub->add_option("--commit", o->commit,
                  "the agent's change as git names it: a commit or BASE..HEAD, recorded for the "
                  "review to show (default: the working tree's uncommitted diff of the paths)")
      ->check(AtMostIdBytes);
  sub->add_option("--approaches", o->approaches,
                  "valid approaches the agent sees (2+: present two versions, seed 000 §6.4)")
      ->check(CLI::Range(int64_t{1}, int64_t{100}));
  sub->add_option("--compare-with", o->compare_with,
                  "the version of the same artifact this one is an alternative to: the review "
                  "presents the two as an A/B comparison")
      ->check(AtMostIdBytes);
  sub->add_flag("--no-record", o->no_record,
                "do not record the prediction as a work event (a preview: the check then does not "
                "count as this version's first self-review pass)")
      ->excludes(submit);
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, o] { return CheckCommand(c, *o); }};
}

}  // namespace kaizen::cli
