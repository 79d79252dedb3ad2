#include "checks/self_check_run.h"

#include <sodium.h>

#include <algorithm>

#include <fmt/format.h>

#include <filesystem>

#include "base/hex.h"
#include "base/json_writer.h"
#include "base/sibling.h"
#include "checks/default_checks.h"
#include "model/event_writer.h"
#include "model/limits.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::checks {

using model::EventField;
namespace {

constexpr std::string_view kChecksConfig = "config/checks.json";

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

}  // namespace

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

Status LoadSelfCheckState(const home::Common& c, home::LearnedState* out) {
  return LoadLearnedState(c, out, nullptr, kSelfCheckParts);
}

// BLAKE2b, length-prefixed fields so no two file sets hash alike by concatenation.
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
  *id = "check-" + base::HexOf(a, sizeof a);
  *version = base::HexOf(b, sizeof b);
}

learn::SelfCheckResult SelfCheckFiles(const learn::Learner& learner,
                                      const learn::ReviewHistory& history, int64_t now_ms,
                                      std::string_view task_type,
                                      const std::vector<CheckSpec>& specs,
                                      const std::vector<CheckedFile>& files,
                                      const learn::SelfCheckConfig& config,
                                      std::string_view artifact_id, std::string_view version) {
  const std::vector<learn::LearnedRule> rules = learner.Rules(now_ms);
  std::vector<std::string> active;
  for (const auto& rule : rules) {
    if (rule.status == learn::RuleStatus::kActive) active.push_back(rule.id);
  }
  const std::vector<learn::RuleCheck> checks =
      RunChecks(specs, active, files, config.timeout_seconds);
  const std::vector<learn::ScoreGate> gates = learner.gates().Gates(now_ms);

  learn::SelfCheckInput in;
  in.task_type = std::string(task_type);
  in.rules = &rules;
  in.checks = &checks;
  in.history = &history;
  in.gates = &gates;
  in.preferences = &learner.preferences();
  in.calibration = &learner.calibration();
  in.autonomy = &learner.autonomy();
  in.checked_before = learner.work_registry().Find(artifact_id, version).has_value();
  return learn::RunSelfCheck(in, config);
}

std::string WorkingTreeDiff(const std::vector<std::string>& paths, std::string* note) {
  std::vector<std::string> absolute;
  std::error_code ec;
  for (const std::string& p : paths) absolute.push_back(std::filesystem::absolute(p, ec).string());
  Result<base::GitDiff> diff = base::RunGitDiff(absolute, "");
  if (!diff.ok()) {
    // No repository or no uncommitted change is no change to record; anything else is said.
    if (diff.status().code() != StatusCode::kNotFound) *note = diff.status().message();
    return {};
  }
  if (diff->text.size() > model::kMaxStringBytes) {
    *note = fmt::format(
        "the working tree's diff is {} bytes, over the {} a string may hold: not "
        "recorded",
        diff->text.size(), model::kMaxStringBytes);
    return {};
  }
  return std::move(diff->text);
}

// generationContext is required; a self-check run by hand does not know the prompt or the model,
// so they read "unknown" (a hook fills them in); the memorySnapshot lists the active rules the
// work was checked against.
std::string PredictionWorkEventJson(const PredictionWork& o, const learn::SelfCheckResult& r,
                                    size_t files) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kWork);
  model::Key(w, EventField::workProduct);
  w.StartObject();
  model::Key(w, EventField::type);
  base::Str(w, o.type);
  model::Key(w, EventField::id);
  base::Str(w, o.id);
  model::Key(w, EventField::version);
  base::Str(w, o.version);
  if (o.paths.size() == 1) {
    model::Key(w, EventField::path);
    base::Str(w, o.paths[0]);
  }
  model::Key(w, EventField::summary);
  base::Str(w, o.what.empty() ? Summary(r, files) : o.what + " (" + Summary(r, files) + ")");
  model::Key(w, EventField::bubaConfidence);
  base::Num(w, std::clamp(r.confidence, 0.0, 1.0));
  model::Key(w, EventField::bubaScorePrediction);
  base::Num(w, std::clamp(r.score, 1.0, 10.0));
  model::Key(w, EventField::generationContext);
  w.StartObject();
  model::Key(w, EventField::promptHash);
  base::Str(w, o.prompt_hash);
  model::Key(w, EventField::memorySnapshot);
  w.StartArray();
  for (const std::string& rule : r.rules_checked) base::Str(w, rule);
  for (const std::string& rule : r.rules_unchecked) base::Str(w, rule);
  w.EndArray();
  model::Key(w, EventField::modelUsed);
  base::Str(w, o.model);
  model::Key(w, EventField::generationTimeMs);
  w.Int64(o.generation_ms);
  model::Key(w, EventField::iterationCount);
  w.Int64(o.iterations);
  w.EndObject();
  if (!o.commit.empty()) {
    model::Key(w, EventField::commit);
    base::Str(w, o.commit);
  }
  if (!o.diff.empty()) {
    model::Key(w, EventField::diff);
    base::Str(w, o.diff);
  }
  w.EndObject();
  if (!o.compare_with.empty()) {
    model::Key(w, EventField::compareWith);
    base::Str(w, o.compare_with);
  }
  if (!o.for_review) {
    model::Key(w, EventField::forReview);
    w.Bool(false);
  }
  if (!o.session_id.empty()) {
    model::Key(w, EventField::sessionId);
    base::Str(w, o.session_id);
  }
  if (!o.stage.empty()) {
    model::Key(w, EventField::pipelineStage);
    base::Str(w, o.stage);
  }
  model::Key(w, EventField::mcpServerType);
  base::Str(w, o.task_type);
  w.EndObject();
  return b.GetString();
}

std::string SelfCheckJson(const learn::SelfCheckResult& r, const learn::CompareAdvice& compare,
                          const std::vector<CheckedFile>& files,
                          const std::vector<SkippedFile>& skipped, const std::string& id,
                          const std::string& version, bool stored, const std::string& event_id,
                          const std::string& note) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  learn::WriteJsonMembers(w, r);
  base::Key(w, "compare");  // seed 000 §6.4: present two versions instead of this one alone
  learn::WriteJson(w, compare);
  base::Key(w, "artifactId");
  base::Str(w, id);
  model::Key(w, EventField::version);
  base::Str(w, version);
  base::Key(w, "workEventId");
  if (stored) {
    base::Str(w, event_id);
  } else {
    w.Null();
  }
  base::Key(w, "recordNote");
  base::Str(w, note);
  base::Key(w, "files");
  w.StartArray();
  for (const CheckedFile& f : files) base::Str(w, f.path);
  w.EndArray();
  base::Key(w, "skipped");
  w.StartArray();
  for (const SkippedFile& s : skipped) {
    w.StartObject();
    model::Key(w, EventField::path);
    base::Str(w, s.path);
    base::Key(w, "why");
    base::Str(w, s.why);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return b.GetString();
}

}  // namespace kaizen::checks
