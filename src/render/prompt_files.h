// seed 000 §8.3 "Per-Domain Instruction Sets": the active rules as prompt files an agent includes
// by the work it is doing.
//
//   prompts/global-rules.md             active rules that apply to all server types
//   prompts/domains/<work type>.md      active rules learned from reviews of that work type
//   prompts/server-types/<server>.md    active rules learned from reviews of that server type
//
// Only files with at least one active rule exist; `kaizen render` removes the stale ones
// (IsOwnedPromptFile says which files it may remove). The files carry no date, so they change
// only when the rules (or their evidence) change: §8.3 "rebuilt when new rules cross the
// confidence threshold".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "learn/rules/rule_book.h"
#include "render/artifact.h"

namespace kaizen::render {

// Only active rules (status kActive) go into prompt artifacts: candidates have not crossed the
// confidence threshold and retired rules were judged wrong by an audit.
std::vector<const learn::LearnedRule*> ActiveRules(const std::vector<learn::LearnedRule>& rules);

// A work or server type as a file name: lowercase ASCII letters, digits, '.', '_' and '-'; any
// other run of bytes becomes one '-'; at most 64 bytes; no leading '.' or '-'. Empty when nothing
// is left ("../" gives "", "Shopify Plus" gives "shopify-plus").
std::string FileSlug(std::string_view name);

// The §8.3 files, sorted by path. A rule's reviewer examples (at most 2) are quoted with
// QuoteReviewerText.
std::vector<RenderedFile> PromptFiles(const std::vector<learn::LearnedRule>& rules);

// The single-file prompt artifacts render writes besides the rule files.
inline constexpr std::string_view kChecklistPath = "prompts/pre-review-checklist.md";
inline constexpr std::string_view kAntiPatternsPath = "prompts/anti-patterns.md";
inline constexpr std::string_view kProvenPatternsPath = "prompts/proven-patterns.md";

// True for paths `kaizen render` owns and may delete when a render no longer produces them:
// prompts/global-rules.md, the three single files above, and the .md files directly under
// prompts/domains/, prompts/errors/, prompts/rubrics/ and prompts/server-types/.
bool IsOwnedPromptFile(std::string_view path);

// The directories under the home whose .md files render owns (for listing stale files).
std::vector<std::string> OwnedPromptDirs();

}  // namespace kaizen::render
