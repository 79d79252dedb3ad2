// libFuzzer target for what `kaizen hook` reads: an agent's hook payload (agents/hook_payload.h),
// the person's prompt in it (text/prompt_judgement.h) and the enforcement config
// (agents/hook_steps.h), Codex's session log (agents/codex_rollout.h) and config.toml
// (agents/codex_trust.h). Nothing may crash, leak or hang, and:
//   - a payload that parses has an event name and a session id, and every file write names a
//     path and carries text;
//   - every answer kaizen would print for it is one JSON object;
//   - a prompt read as a correction or instruction has an instruction no longer than the prompt.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "agents/codex_rollout.h"
#include "agents/codex_trust.h"
#include "agents/hook_payload.h"
#include "agents/hook_steps.h"
#include "text/prompt_judgement.h"

namespace {

using namespace kaizen;

void CheckObject(simdjson::dom::parser& parser, const std::string& line) {
  if (line.empty()) return;
  simdjson::dom::object o;
  if (parser.parse(line).get_object().get(o) != simdjson::SUCCESS) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  simdjson::dom::parser parser;
  Result<agents::HookPayload> p = agents::ParseHookPayload(input, std::nullopt);
  if (p.ok()) {
    if (p->event_name.empty() || p->session_id.empty()) std::abort();
    for (const agents::FileWrite& w : p->writes) {
      if (w.path.empty() || w.text.empty()) std::abort();
    }
    CheckObject(parser, agents::SessionStartOutput(p->agent, p->prompt));
    CheckObject(parser, agents::BlockOutput(p->agent, p->failure));
    CheckObject(parser, agents::WarnOutput(p->agent, p->last_assistant_message));
    (void)agents::ClassifyToolError(p->failure);
  }
  const text::PromptReading r = text::ReadPrompt(input);
  if (r.instruction.size() > input.size()) std::abort();
  if (r.judgement == text::PromptJudgement::kPositive && !r.instruction.empty()) std::abort();
  (void)agents::ParseEnforcementConfig(input);
  // The same bytes as Codex's session log (a failed command's exit code): a found entry's output
  // is part of the input; and as its config.toml (the trust of the project and its hooks).
  if (std::optional<agents::CommandEnd> end = agents::FindCommandEnd(input, "call_1")) {
    if (end->output.size() > input.size()) std::abort();
  }
  (void)agents::ParseCodexTrust(input, "config.toml", "/p");
  return 0;
}
