// The verbs that learn: analyze, explain, config. They read the log through the same views the
// rules take, with the home's learning config, at an explicit `now`.
#include <fmt/format.h>

#include <memory>

#include "cli/clock.h"
#include "cli/commands.h"
#include "cli/learned_checkpoint.h"
#include "cli/learned_state.h"
#include "cli/log_views.h"
#include "learn/config_json.h"
#include "learn/learner.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

constexpr std::string_view kLearningConfig = "config/learning.json";

// The learner of a one-shot verb, left to the process exit: freeing the state of a large log
// node by node costs about a tenth of `kaizen analyze`'s time, for memory the exit frees anyway.
// Reachable from here, so a leak checker does not report it.
learn::Learner* left_for_exit = nullptr;

}  // namespace

Status LoadLearnConfig(const std::string& home, learn::LearnConfig* config) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, kLearningConfig);
  if (!fs->Exists(path)) return Status::Ok();
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  Status s = learn::ApplyConfigJson(text, config->Fields());
  if (s.ok()) s = config->Validate();
  if (!s.ok()) return InvalidArgument(fmt::format("{}: {}", path, s.message()));
  return Status::Ok();
}

Result<std::optional<ingest::ThemeTaxonomy>> LoadTaxonomy(const std::string& home) {
  const std::string path = home + "/config/themes.json";
  if (!store::DefaultFileSystem()->Exists(path)) return std::optional<ingest::ThemeTaxonomy>();
  KZ_ASSIGN_OR_RETURN(std::string json, store::DefaultFileSystem()->ReadFrom(path, 0));
  auto taxonomy = ingest::ThemeTaxonomy::FromUserJson(json);
  if (!taxonomy.ok()) return InvalidArgument(path + ": " + taxonomy.status().message());
  return std::optional<ingest::ThemeTaxonomy>(std::move(taxonomy).value());
}

Status LoadLearnedState(const Common& c, LearnedState* out,
                        const std::function<void(const learn::EventViews&)>& also,
                        learn::Parts parts, const learn::ReadScope& also_reads) {
  learn::LearnConfig config;
  KZ_RETURN_IF_ERROR(LoadLearnConfig(c.home, &config));
  KZ_ASSIGN_OR_RETURN(out->taxonomy, LoadTaxonomy(c.home));
  // `--now end`: as of the newest event, for a log written in the past (a replay, a demo).
  const bool at_end = c.now == "end";
  if (!at_end) {
    KZ_ASSIGN_OR_RETURN(out->now_ms, NowMs(c.now));
  }
  const ingest::ThemeTaxonomy* taxonomy = out->taxonomy ? &*out->taxonomy : nullptr;
  if (!also) {
    // Every part, from the checkpoint: what a verb does not read costs nothing once it is there.
    auto make = [&] {
      return std::make_unique<learn::Learner>(config, taxonomy, learn::Parts::All());
    };
    out->learner = make();
    KZ_RETURN_IF_ERROR(FoldWithCheckpoint(c.home, make, &out->learner, &out->scan));
    if (at_end) out->now_ms = out->learner->newest_ms();
    return Status::Ok();
  }
  out->learner = std::make_unique<learn::Learner>(config, taxonomy, parts);
  store::RawLog log(c.home, store::DefaultFileSystem());
  learn::Learner& learner = *out->learner;
  learn::ReadScope scope = learner.scope();
  if (also) scope |= also_reads;
  KZ_RETURN_IF_ERROR(ReadLogViews(
      log,
      [&](learn::EventViews& e) {
        learner.Add(e);
        if (also) also(e);
      },
      &out->scan, [&](learn::EventViews* e) { learner.Prepare(e); }, scope));
  if (at_end) out->now_ms = learner.newest_ms();
  return Status::Ok();
}

int FailVerb(std::string_view verb, const Status& s) {
  fmt::print(stderr, "kaizen {}: {}\n", verb, s.message());
  return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
}

void WarnUnreadable(const LogScan& scan) {
  if (scan.unreadable == 0) return;
  fmt::print(stderr, "kaizen: skipped {} unreadable line(s); run `kaizen verify`\n",
             scan.unreadable);
  for (const BadLine& b : scan.first_unreadable) {
    fmt::print(stderr, "  {}:{}: {}\n", b.file, b.line, b.why);
  }
}

int AnalyzeCommand(const Common& c, const std::string& only) {
  learn::Sections sections = learn::Sections::All();
  if (!only.empty()) {
    std::string error;
    std::optional<learn::Sections> parsed = learn::Sections::Parse(only, &error);
    if (!parsed) return FailVerb("analyze", InvalidArgument("--only: " + error));
    sections = *parsed;
  }
  LearnedState loaded;
  // The analysis reads neither the memory files' state (rule book, score bands, reviewer
  // profiles, kept reviews, review queue) nor the correction patterns: left unfolded.
  if (Status s = LoadLearnedState(c, &loaded, nullptr, sections.Needs()); !s.ok()) {
    return FailVerb("analyze", s);
  }
  WarnUnreadable(loaded.scan);
  std::string out = c.json ? loaded.learner->AnalysisJson(loaded.now_ms, sections)
                           : loaded.learner->AnalysisText(loaded.now_ms, sections);
  fmt::print("{}", out);
  delete left_for_exit;  // a second analysis in one process (the demo runs one)
  left_for_exit = loaded.learner.release();
  return kExitOk;
}

int ExplainCommand(const Common& c, const std::string& what, const std::string& name) {
  // An unknown WHAT (refused by the argument parser already) is refused by Explain.
  const learn::Parts parts = learn::Learner::PartsToExplain(what).value_or(learn::Parts::All());
  LearnedState loaded;
  if (Status s = LoadLearnedState(c, &loaded, nullptr, parts); !s.ok()) {
    return FailVerb("explain", s);
  }
  WarnUnreadable(loaded.scan);
  std::string text;
  Status s = loaded.learner->Explain(what, name, loaded.now_ms, &text);
  if (s.code() == StatusCode::kNotFound) {
    fmt::print(stderr, "kaizen {}\n", s.message());
    return kExitRejected;
  }
  if (!s.ok()) return FailVerb("explain", s);
  fmt::print("{}", text);
  if (!text.empty() && text.back() != '\n') fmt::print("\n");
  return kExitOk;
}

int ConfigCommand(const Common& c, bool defaults) {
  learn::LearnConfig config;
  if (!defaults) {
    if (Status s = LoadLearnConfig(c.home, &config); !s.ok()) return FailVerb("config", s);
  }
  fmt::print("{}", learn::ConfigJson(config.Fields()));
  return kExitOk;
}

}  // namespace kaizen::cli
