// How a theme reads as a rule. The default taxonomy's themes (text::ThemeTaxonomy::Default)
// have hand-written wording in the seed's voice (§3.2 examples, §8.2 ".goosehints"); a theme from
// a custom taxonomy gets generic wording built from its name.
#pragma once

#include <string>
#include <string_view>

namespace kaizen::learn {

struct RuleWording {
  std::string domain;             // a QualityDimension
  std::string rule;               // "Every external call retries with exponential backoff"
  std::string instruction;        // "ALWAYS include retry logic with exponential backoff ..."
  std::string rejection_pattern;  // "Missing retry logic on external calls"
  std::string checklist_item;     // "All external API calls have retry logic with ..."
  std::string fix_suggestion;
  bool auto_fixable = false;  // the agent can fix it mechanically
};

RuleWording WordingFor(std::string_view theme);

}  // namespace kaizen::learn
