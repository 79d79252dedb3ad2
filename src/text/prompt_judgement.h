// What a person's prompt to an agent says about the agent's last turn (issue 28, seed 000 §3.2
// "free text" as the agent hears it): a correction ("no, use X", "don't Y", "that's wrong"), a
// standing instruction ("always Z", "remember: ..."), praise ("perfect, thanks"), or nothing to
// learn (a plain request, a question, "ok"). Only the first three are recorded as `prompt`
// events; a plain request records nothing.
//
// Patterns, not a model: the hook runs on every prompt within a few milliseconds, offline. They
// were written from the labelled prompts of peers' test suites (tests/fixtures/prompts) and are
// measured on them and on real Claude Code prompts in src/ingest/prompt_judgement_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kaizen::text {

enum class PromptJudgement {
  kNone,         // nothing to learn: a request, a question, an acknowledgement
  kCorrection,   // the last turn was wrong: "no, use pnpm", "that's not what I asked"
  kInstruction,  // a standing preference: "always use X", "remember: ...", "I prefer Y"
  kPositive,     // the last turn was right: "perfect, thanks", "exactly what I wanted"
};

// "none", "correction", "instruction", "positive".
std::string_view PromptJudgementName(PromptJudgement j);
std::optional<PromptJudgement> ParsePromptJudgement(std::string_view name);

struct PromptReading {
  PromptJudgement judgement = PromptJudgement::kNone;
  // For a correction or instruction: what to do, as the person said it, without the leading
  // "no," / "remember:" / "that's wrong,": "use pnpm, not npm". Empty otherwise, and when the
  // words name nothing to do out of their conversation ("that's wrong", "use this instead").
  std::string instruction;
};

// Reads one prompt. Pure and thread-safe; the patterns are compiled once.
PromptReading ReadPrompt(std::string_view text);

}  // namespace kaizen::text
