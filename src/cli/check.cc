// `kaizen check PATH... --task-type T`: the pre-review self-check gate (seed 000 §6.1, §6.2).
// Runs the machine checks of every active learned rule on the files, predicts the reviewer's
// score and a calibrated confidence (learn/self_check.h), and records that prediction as a `work`
// event through the ingest pipeline, so the review that follows closes the calibration loop.
// Exit 0: ready for review; 1: self-review again (a major/critical violation, confidence under
// check.confidence_threshold or predicted score under check.min_score); 2: usage or config; 3:
// the system failed.
#include <sodium.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "cli/commands.h"
#include "cli/default_checks.h"
#include "cli/derived_files.h"
#include "cli/learned_state.h"
#include "cli/log_views.h"
#include "cli/machine_check.h"
#include "cli/verbs.h"
#include "ingest/ingestor.h"
#include "learn/json_out.h"
#include "learn/self_check.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

constexpr std::string_view kChecksConfig = "config/checks.json";
constexpr size_t kMaxIdBytes = 256;  // the event model's identifier limit

struct CheckOptions {
  std::vector<std::string> paths;
  std::string task_type, artifact_id, type = "code-module";
  bool no_record = false;
};

// The shipped checks with <home>/config/checks.json merged over them, and its settings.
Status LoadChecks(const std::string& home, std::vector<CheckSpec>* specs,
                  learn::SelfCheckConfig* config) {
  KZ_ASSIGN_OR_RETURN(std::vector<CheckSpec> defaults, DefaultChecks());
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, kChecksConfig);
  std::vector<CheckSpec> own;
  if (fs->Exists(path)) {
    KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
    KZ_RETURN_IF_ERROR(ParseChecksJson(text, path, &own, config));
  }
  *specs = MergeChecks(defaults, own);
  return Status::Ok();
}

// LoadLearnedState, with the self-check's own fold over the same single read of the log.
Status LoadState(const Common& c, LearnedState* out, learn::ReviewHistory* history) {
  return LoadLearnedState(c, out, [out, history](const learn::EventViews& e) {
    // After the learner's Add: the review's work product (and so its task type) is resolved.
    if (e.kind != model::EventKind::kFeedback) return;
    history->Add(e.review, out->taxonomy ? *out->taxonomy : ingest::ThemeTaxonomy::Default());
  });
}

std::string Hex(const unsigned char* bytes, size_t n) {
  std::string out(2 * n + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();  // the terminating NUL
  return out;
}

// The artifact id names the checked paths (a later check of the same paths is a new version of
// the same artifact); the version hashes the paths and their bytes. BLAKE2b, length-prefixed
// fields so no two file sets hash alike by concatenation.
void ArtifactIds(const std::vector<CheckedFile>& files, std::string* id, std::string* version) {
  std::vector<const CheckedFile*> sorted;
  for (const CheckedFile& f : files) sorted.push_back(&f);
  std::sort(sorted.begin(), sorted.end(),
            [](const CheckedFile* a, const CheckedFile* b) { return a->path < b->path; });
  crypto_generichash_state names, contents;
  crypto_generichash_init(&names, nullptr, 0, 8);
  crypto_generichash_init(&contents, nullptr, 0, 16);
  auto add = [](crypto_generichash_state* st, std::string_view s) {
    const uint64_t n = s.size();
    crypto_generichash_update(st, reinterpret_cast<const unsigned char*>(&n), sizeof n);
    crypto_generichash_update(st, reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  for (const CheckedFile* f : sorted) {
    add(&names, f->path);
    add(&contents, f->path);
    add(&contents, f->bytes);
  }
  unsigned char a[8], b[16];
  crypto_generichash_final(&names, a, sizeof a);
  crypto_generichash_final(&contents, b, sizeof b);
  *id = "check-" + Hex(a, sizeof a);
  *version = Hex(b, sizeof b);
}

std::string Summary(const learn::SelfCheckResult& r, size_t files) {
  std::string s = fmt::format("kaizen check of {} file(s): ", files);
  if (r.violations.empty()) {
    s += "no violations";
  } else {
    s += "violates";
    for (const auto& v : r.violations) s += " " + v.rule;
  }
  return s + fmt::format("; predicted {:.1f}/10, confidence {:.2f}", r.score, r.confidence);
}

// The §6.2 prediction as a `work` event (docs/event-model.md): generationContext is required,
// and kaizen check does not know the prompt or the model, so they read "unknown"; the
// memorySnapshot lists the active rules the work was checked against.
std::string WorkEventJson(const CheckOptions& o, const learn::SelfCheckResult& r,
                          const std::string& id, const std::string& version, size_t files) {
  rapidjson::StringBuffer b;
  learn::JsonWriter w(b);
  using learn::Key;
  using learn::Str;
  w.StartObject();
  Key(w, "kind");
  Str(w, "work");
  Key(w, "workProduct");
  w.StartObject();
  Key(w, "type");
  Str(w, o.type);
  Key(w, "id");
  Str(w, id);
  Key(w, "version");
  Str(w, version);
  if (o.paths.size() == 1) {
    Key(w, "path");
    Str(w, o.paths[0]);
  }
  Key(w, "summary");
  Str(w, Summary(r, files));
  Key(w, "bubaConfidence");
  learn::Num(w, std::clamp(r.confidence, 0.0, 1.0));
  Key(w, "bubaScorePrediction");
  learn::Num(w, std::clamp(r.score, 1.0, 10.0));
  Key(w, "generationContext");
  w.StartObject();
  Key(w, "promptHash");
  Str(w, "unknown");
  Key(w, "memorySnapshot");
  w.StartArray();
  for (const std::string& rule : r.rules_checked) Str(w, rule);
  for (const std::string& rule : r.rules_unchecked) Str(w, rule);
  w.EndArray();
  Key(w, "modelUsed");
  Str(w, "unknown");
  Key(w, "generationTimeMs");
  w.Int(0);
  Key(w, "iterationCount");
  w.Int(0);
  w.EndObject();
  w.EndObject();
  Key(w, "mcpServerType");
  Str(w, o.task_type);
  w.EndObject();
  return b.GetString();
}

struct Recorded {
  bool stored = false;
  std::string event_id;
  std::string note;  // why it was not stored
};

// Through the same pipeline as `kaizen record work`. A version already recorded (the same files,
// unchanged, checked again) is not an error: the earlier prediction stands.
Status Record(const Common& c, int64_t now_ms, const std::string& event, Recorded* out) {
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
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
    (void)MarkDerivedStale(ingestor.log());
    return Status::Ok();
  }
  for (const auto& e : errors) {
    if (e.path == "workProduct.version") {
      out->note = "this version was already recorded; the earlier prediction stands";
      return Status::Ok();
    }
  }
  std::string why;
  for (const auto& e : errors) why += (why.empty() ? "" : "; ") + e.ToString();
  return InvalidArgument("the work event was refused: " + why);
}

void PrintText(const learn::SelfCheckResult& r, const std::vector<CheckedFile>& files,
               const std::vector<SkippedFile>& skipped, const std::string& id,
               const std::string& version, const Recorded& rec,
               const learn::SelfCheckConfig& config) {
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
  if (r.ready_for_review) {
    fmt::print("ready for review\n");
  } else {
    fmt::print("self-review needed:");
    for (size_t i = 0; i < r.reasons.size(); ++i) {
      fmt::print("{} {}", i ? ";" : "", r.reasons[i]);
    }
    fmt::print("\n");
  }
  fmt::print("artifact {} version {}", id, version);
  if (rec.stored) {
    fmt::print(" recorded as work event {}\n", rec.event_id);
  } else if (!rec.note.empty()) {
    fmt::print(" ({})\n", rec.note);
  } else {
    fmt::print(" (not recorded: --no-record)\n");
  }
}

void PrintJson(const learn::SelfCheckResult& r, const std::vector<CheckedFile>& files,
               const std::vector<SkippedFile>& skipped, const std::string& id,
               const std::string& version, const Recorded& rec) {
  rapidjson::StringBuffer b;
  learn::JsonWriter w(b);
  using learn::Key;
  using learn::Str;
  w.StartObject();
  learn::WriteJsonMembers(w, r);
  Key(w, "artifactId");
  Str(w, id);
  Key(w, "version");
  Str(w, version);
  Key(w, "workEventId");
  if (rec.stored) {
    Str(w, rec.event_id);
  } else {
    w.Null();
  }
  Key(w, "recordNote");
  Str(w, rec.note);
  Key(w, "files");
  w.StartArray();
  for (const CheckedFile& f : files) Str(w, f.path);
  w.EndArray();
  Key(w, "skipped");
  w.StartArray();
  for (const SkippedFile& s : skipped) {
    w.StartObject();
    Key(w, "path");
    Str(w, s.path);
    Key(w, "why");
    Str(w, s.why);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  fmt::print("{}\n", b.GetString());
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
  std::vector<CheckSpec> specs;
  if (Status s = LoadChecks(c.home, &specs, &config); !s.ok()) return FailVerb("check", s);
  std::vector<CheckedFile> files;
  std::vector<SkippedFile> skipped;
  if (Status s = CollectFiles(o.paths, &files, &skipped); !s.ok()) return FailVerb("check", s);

  LearnedState state;
  learn::ReviewHistory history;
  if (Status s = LoadState(c, &state, &history); !s.ok()) return FailVerb("check", s);
  WarnUnreadable(state.scan);
  const learn::Learner& learner = *state.learner;

  const std::vector<learn::LearnedRule> rules = learner.Rules(state.now_ms);
  std::vector<std::string> active;
  for (const auto& rule : rules) {
    if (rule.status == learn::RuleStatus::kActive) active.push_back(rule.id);
  }
  const std::vector<learn::RuleCheck> checks =
      RunChecks(specs, active, files, config.timeout_seconds);
  const std::vector<learn::ScoreGate> gates = learner.gates().Gates(state.now_ms);

  learn::SelfCheckInput in;
  in.task_type = o.task_type;
  in.rules = &rules;
  in.checks = &checks;
  in.history = &history;
  in.gates = &gates;
  in.preferences = &learner.preferences();
  in.calibration = &learner.calibration();
  in.autonomy = &learner.autonomy();
  const learn::SelfCheckResult result = learn::RunSelfCheck(in, config);

  std::string id, version;
  ArtifactIds(files, &id, &version);
  if (!o.artifact_id.empty()) id = o.artifact_id;
  Recorded rec;
  if (!o.no_record) {
    Status s = Record(c, state.now_ms, WorkEventJson(o, result, id, version, files.size()), &rec);
    if (!s.ok()) {
      fmt::print(stderr, "kaizen check: {}\n", s.message());
      return kExitSystem;
    }
  }
  if (c.json) {
    PrintJson(result, files, skipped, id, version, rec);
  } else {
    PrintText(result, files, skipped, id, version, rec, config);
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
  sub->add_option("PATH", o->paths, "files or directories to check")->required();
  sub->add_option("--task-type", o->task_type,
                  "the task type (mcpServerType) the work is for, e.g. api-client")
      ->required();
  sub->add_option("--artifact-id", o->artifact_id,
                  "the work product id to record (default: derived from the paths)");
  sub->add_option("--type", o->type, "the work product type (default code-module)")
      ->check(CLI::IsMember({"mcp-server", "code-module", "design", "test-suite", "documentation",
                             "pipeline-config"}));
  sub->add_flag("--no-record", o->no_record, "do not record the prediction as a work event");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, o] { return CheckCommand(c, *o); }};
}

}  // namespace kaizen::cli
