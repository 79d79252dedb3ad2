// What `kaizen hook` does at each hook point (cli/hook.cc has the verb, its fail-open envelope and
// the list). Each step reads the home, may store events through the one pipeline, and returns
// the line to print on standard output ("" for none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "agents/hook_payload.h"
#include "home/common.h"
#include "home/loop_store.h"
#include "kaizen/status.h"
#include "learn/learner.h"
#include "model/event_kind.h"

namespace kaizen::agents {

// Where the steps' learned state comes from and where their events go: this process, folding the
// home's log (LocalHookBackend), or a running `kaizen serve`'s live learner (serve/routes.cc), so
// a hook answered by the server costs no fold.
class HookBackend {
 public:
  virtual ~HookBackend() = default;
  using LearnerFn = std::function<Status(const learn::Learner& learner, int64_t now_ms)>;
  // Calls `fn` with a learner folded over the whole log (at least `parts` of it) and the time to
  // answer for.
  virtual Status WithLearner(learn::Parts parts, const LearnerFn& fn) = 0;
  // Stores one event through the pipeline (home/loop_store.h's contract).
  virtual Result<home::StoredEvent> Store(model::EventKind kind, const std::string& json,
                                          int64_t now_ms) = 0;
};

// The CLI's: LoadLearnedState and StoreEvent on `common.home`.
class LocalHookBackend : public HookBackend {
 public:
  explicit LocalHookBackend(const home::Common& common) : common_(common) {}
  Status WithLearner(learn::Parts parts, const LearnerFn& fn) override;
  Result<home::StoredEvent> Store(model::EventKind kind, const std::string& json,
                                  int64_t now_ms) override;

 private:
  const home::Common& common_;
};

struct HookContext {
  home::Common common;             // home resolved; --now
  HookBackend* backend = nullptr;  // REQUIRES: set
  HookPayload payload;
  int64_t now_ms = 0;
  size_t budget_tokens = 2000;
  std::vector<std::string> notes;  // what the log should say besides errors
};

Result<std::string> RunHookStep(HookContext& ctx);

// Seed 004 enforcement per pattern (<home>/config/enforcement.json):
//   {"default": "block" | "warn" | "off", "patterns": {"<pattern id>": "block" | "warn" | "off"}}
// Both keys optional; the default is "block". InvalidArgument names the key, value and rule.
enum class EnforcementMode { kOff, kWarn, kBlock };
struct EnforcementConfig {
  EnforcementMode fallback = EnforcementMode::kBlock;
  std::vector<std::pair<std::string, EnforcementMode>> patterns;
  EnforcementMode ModeOf(std::string_view pattern_id) const;
};
Result<EnforcementConfig> ParseEnforcementConfig(std::string_view json);

// The hints files the session start refreshes (<home>/config/hints.json, written by `kaizen
// init`): {"files": ["CLAUDE.md", ...]}, relative to the project directory (the home's parent).
Result<std::vector<std::string>> HintsFiles(const std::string& home);

}  // namespace kaizen::agents
