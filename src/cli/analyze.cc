// The verbs that learn: analyze, explain, config. They read the log through the same views the
// rules take, with the home's learning config, at an explicit `now`.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.h"
#include "home/clock.h"
#include "home/learned_checkpoint.h"
#include "home/learned_state.h"
#include "home/log_views.h"
#include "learn/config_json.h"
#include "learn/learner.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

// The learner of a one-shot verb, left to the process exit: freeing the state of a large log
// node by node costs about a tenth of `kaizen analyze`'s time, for memory the exit frees anyway.
// Reachable from here, so a leak checker does not report it.
learn::Learner* left_for_exit = nullptr;

}  // namespace

int AnalyzeCommand(const Common& c, const std::string& only) {
  learn::Sections sections = learn::Sections::All();
  if (!only.empty()) {
    std::string error;
    std::optional<learn::Sections> parsed = learn::Sections::Parse(only, &error);
    if (!parsed) return home::FailVerb("analyze", InvalidArgument("--only: " + error));
    sections = *parsed;
  }
  home::LearnedState loaded;
  // The analysis reads neither the memory files' state (rule book, score bands, reviewer
  // profiles, kept reviews, review queue) nor the correction patterns: left unfolded.
  if (Status s = home::LoadLearnedState(c, &loaded, nullptr, sections.Needs()); !s.ok()) {
    return home::FailVerb("analyze", s);
  }
  home::WarnUnreadable(loaded.scan);
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
  home::LearnedState loaded;
  if (Status s = home::LoadLearnedState(c, &loaded, nullptr, parts); !s.ok()) {
    return home::FailVerb("explain", s);
  }
  home::WarnUnreadable(loaded.scan);
  std::string text;
  Status s = loaded.learner->Explain(what, name, loaded.now_ms, &text);
  if (s.code() == StatusCode::kNotFound) {
    fmt::print(stderr, "kaizen {}\n", s.message());
    return kExitRejected;
  }
  if (!s.ok()) return home::FailVerb("explain", s);
  fmt::print("{}", text);
  if (!text.empty() && text.back() != '\n') fmt::print("\n");
  return kExitOk;
}

int ConfigCommand(const Common& c, bool defaults) {
  learn::LearnConfig config;
  if (!defaults) {
    if (Status s = home::LoadLearnConfig(c.home, &config); !s.ok())
      return home::FailVerb("config", s);
  }
  fmt::print("{}", learn::ConfigJson(config.Fields()));
  return kExitOk;
}

}  // namespace kaizen::cli
