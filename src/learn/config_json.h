// `<home>/config/learning.json`: every threshold of the learning rules, by name. A file may set
// any subset; what it leaves out keeps the seed's default. Parsing is pure (text in, values out):
// the CLI reads the file.
#pragma once

#include <string>
#include <string_view>

#include "kaizen/status.h"
#include "learn/config_field.h"

namespace kaizen::learn {

// Applies `json`, an object of sections of keys ({"outcomes": {"half_life_days": 60}}), to the
// fields. On error nothing is changed and the message names the key, the value and the rule,
// e.g. `learning config: outcomes.half_life_days: -3.0 is out of range 0.001..36500.0`.
Status ApplyConfigJson(std::string_view json, const ConfigFields& fields);

// The whole configuration as that JSON, sections and keys in table order, one key per line.
std::string ConfigJson(const ConfigFields& fields);

}  // namespace kaizen::learn
