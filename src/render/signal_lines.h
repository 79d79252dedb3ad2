// What the agent is told of seed 001's automatic and low-friction signals: what happened to its
// work after review (reverts, people rewriting its lines, CI, ratings), as plain lines for the
// context (`kaizen context`), the hints file and the memory files. Pure.
#pragma once

#include <string>
#include <vector>

#include "learn/outcomes/signals.h"

namespace kaizen::render {

// At most a summary line per metric that has data, then one line per recent failed outcome,
// newest first. Empty when no signal was recorded. Labels from the log are sanitized.
std::vector<std::string> SignalLines(const learn::SignalsResult& signals);

}  // namespace kaizen::render
