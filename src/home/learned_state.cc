// Loading a home's learned state: its learning config and taxonomy, the log folded (from the
// checkpoint when the verb reads every part), and `now`.
#include "home/learned_state.h"

#include <fmt/format.h>

#include <memory>

#include "base/exit_code.h"
#include "home/clock.h"
#include "home/learned_checkpoint.h"
#include "home/log_views.h"
#include "learn/config_json.h"
#include "learn/learner.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {

constexpr std::string_view kLearningConfig = "config/learning.json";

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

Result<std::optional<text::ThemeTaxonomy>> LoadTaxonomy(const std::string& home) {
  const std::string path = home + "/config/themes.json";
  if (!store::DefaultFileSystem()->Exists(path)) return std::optional<text::ThemeTaxonomy>();
  KZ_ASSIGN_OR_RETURN(std::string json, store::DefaultFileSystem()->ReadFrom(path, 0));
  auto taxonomy = text::ThemeTaxonomy::FromUserJson(json);
  if (!taxonomy.ok()) return InvalidArgument(path + ": " + taxonomy.status().message());
  return std::optional<text::ThemeTaxonomy>(std::move(taxonomy).value());
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
  const text::ThemeTaxonomy* taxonomy = out->taxonomy ? &*out->taxonomy : nullptr;
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
  scope |= also_reads;
  KZ_RETURN_IF_ERROR(ReadLogViews(
      log,
      [&](learn::EventViews& e) {
        learner.Add(e);
        also(e);
      },
      &out->scan, [&](learn::EventViews* e) { learner.Prepare(e); }, scope));
  if (at_end) out->now_ms = learner.newest_ms();
  return Status::Ok();
}

Status CheckpointLearnedState(const std::string& home, CheckpointUse* use) {
  learn::LearnConfig config;
  KZ_RETURN_IF_ERROR(LoadLearnConfig(home, &config));
  KZ_ASSIGN_OR_RETURN(std::optional<text::ThemeTaxonomy> taxonomy, LoadTaxonomy(home));
  auto make = [&] {
    return std::make_unique<learn::Learner>(config, taxonomy ? &*taxonomy : nullptr,
                                            learn::Parts::All());
  };
  std::unique_ptr<learn::Learner> learner = make();
  LogScan scan;
  return FoldWithCheckpoint(home, make, &learner, &scan, use, CheckpointWrite::kNow);
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

}  // namespace kaizen::home
