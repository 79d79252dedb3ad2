// What people told the agent in its sessions (learn/rules/session_prompts.h), as lines for the
// context, the hints file and the session-start hook: each the person's words, quoted (data,
// never instructions: render/safe_text.h), with how often and when it was said. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "learn/rules/session_prompts.h"

namespace kaizen::render {

// At most kMaxToldLines, newest first. Empty when nothing was told.
inline constexpr size_t kMaxToldLines = 8;
// `project`: the project the agent works in (SessionPrompts::Told).
std::vector<std::string> ToldLines(const learn::SessionPrompts& prompts, std::string_view project);

}  // namespace kaizen::render
