// One tunable threshold: its name in `<home>/config/learning.json`, where it lives, its seed
// default and the range a value must lie in. Each rule's config struct lists its fields, so
// the loader, `kaizen config` and docs/analysis.md all read one table.
#pragma once

#include <string_view>
#include <vector>

namespace kaizen::learn {

struct ConfigField {
  std::string_view name;  // "section.key", e.g. "outcomes.half_life_days"
  double* value;          // points into the owning config struct
  double min, max;        // inclusive range a configured value must lie in
  bool integer;           // must be a whole number
  std::string_view doc;   // one line: what it means, and the seed section it comes from
};

using ConfigFields = std::vector<ConfigField>;

}  // namespace kaizen::learn
