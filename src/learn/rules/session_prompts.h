// What people told agents in their sessions (issue 28: `prompt` events from `kaizen hook`): the
// themes of a correction or instruction are negative evidence for rules, the themes of praise
// positive, through the same ThemeEvidence and RuleBook the reviews feed; and the instructions
// themselves, newest first, are what the agent is reminded of ("Told in Sessions"), since most
// ("use pnpm, not npm") name no theme of the taxonomy. Never a review decision: approval,
// autonomy, calibration and the KPIs do not see prompts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "learn/reviews/review_themes.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"
#include "model/project_key.h"

namespace kaizen::learn {

inline constexpr std::string_view kSourceSessionPrompt = "session-prompt";
// The stage a prompt's evidence is filed under (its context split, seed 000 §9.2).
inline constexpr std::string_view kSessionPromptStage = "agent-session";

// A prompt's themes with the polarity of its judgement (correction and instruction -, positive
// +; none: no evidence, empty), each quoting the prompt.
std::vector<ReviewTheme> PromptThemes(const model::PromptView& prompt);

// One thing the agent was told, with how often and when last.
struct ToldInstruction {
  std::string text;       // the instruction, else the whole prompt
  std::string judgement;  // correction | instruction
  int64_t times = 0;      // prompts that said it (the same words, case and spacing aside)
  int64_t last_ms = 0;
  // Where it was said (issue 30 item 5): the projects (model::ProjectKey, sorted, at most
  // kMaxToldProjects), and whether a prompt naming no project said it.
  std::vector<std::string> projects;
  bool anywhere = false;
};
inline constexpr size_t kMaxToldProjects = 8;

class SessionPrompts {
 public:
  void Add(const model::PromptView& prompt);
  // The newest `limit` distinct instructions told to an agent working in `project` (any
  // spelling model::ProjectKey reads; empty: unknown), newest first. Like rules (RuleBook): while
  // the prompts name fewer than two projects every instruction holds everywhere; after, one holds
  // in the projects it was said in, or everywhere once said in 2+ projects or in a prompt naming
  // none.
  std::vector<ToldInstruction> Told(size_t limit, std::string_view project) const;
  int64_t corrections() const { return corrections_; }
  int64_t instructions() const { return instructions_; }
  int64_t positives() const { return positives_; }

 private:
  // At most kKept distinct instructions are remembered: the oldest makes room.
  static constexpr size_t kKept = 64;
  struct Entry {
    ToldInstruction told;
    uint64_t seq = 0;  // when last said, in log order (prompts of one millisecond are ordered)
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  std::unordered_map<std::string, Entry, StringHash, std::equal_to<>> told_;
  int64_t corrections_ = 0, instructions_ = 0, positives_ = 0;
  uint64_t seq_ = 0;
  model::ProjectsNamed projects_named_;  // by the corrections and instructions
};

}  // namespace kaizen::learn
