// Which commits an AI agent wrote (seed 001 tier 1 signals judge the agent's commits): the author
// or a `Co-authored-by:` trailer matches a case-insensitive RE2 pattern.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace re2 {
class RE2;
}

namespace kaizen::signals {

// The default --agent pattern: the names, e-mail domains and bot accounts today's coding agents
// commit under (Claude Code, GitHub Copilot, OpenAI Codex, Cursor, Aider, Devin, OpenHands,
// Gemini, Jules, Sweep) and any GitHub App account ("[bot]": dependabot[bot],
// copilot-swe-agent[bot], ...). Whole words, so "Claudette" or "discursory" do not match; a human
// whose name is one of these words (Claude, Devin) does, and needs --agent.
inline constexpr std::string_view kDefaultAgentPattern =
    R"(\bclaude\b|anthropic\.com|\bcopilot\b|\bcodex\b|\bcursor(agent)?\b|cursor\.com|\baider\b|)"
    R"(\bdevin\b|\bopenhands\b|all-hands\.dev|\bgemini\b|\bjules\b|\bsweep\b|\[bot\])";

// The values of the `Co-authored-by:` trailers of a commit message ("Name <email>"), in order.
// The key is matched case-insensitively, as git does.
std::vector<std::string> CoAuthors(std::string_view message);

class AgentMatcher {
 public:
  // InvalidArgument names the pattern and RE2's reason when it does not compile.
  static Result<AgentMatcher> Create(std::string_view pattern);

  // The agent identity ("Name <email>") when the commit is an agent's: the author when it
  // matches, else the first matching co-author. nullopt: a human commit.
  std::optional<std::string> Match(std::string_view author_name, std::string_view author_email,
                                   std::string_view message) const;
  // Whether `text` alone (a GitHub login, a branch prefix) matches the pattern.
  bool Matches(std::string_view text) const;

 private:
  explicit AgentMatcher(std::shared_ptr<const re2::RE2> re) : re_(std::move(re)) {}
  std::shared_ptr<const re2::RE2> re_;  // immutable, so copies share it
};

}  // namespace kaizen::signals
