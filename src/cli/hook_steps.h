// What `kaizen hook` does at each hook point (cli/hook.cc has the verb, its fail-open envelope and
// the list). Each step reads the home, may store events through the one pipeline, and returns
// the line to print on standard output ("" for none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/hook_payload.h"
#include "kaizen/status.h"

namespace kaizen::cli {

struct HookContext {
  Common common;  // home resolved; --now
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

}  // namespace kaizen::cli
