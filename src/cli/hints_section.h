// The learned section of a hints file, as `kaizen hints FILE` writes it below the marker
// (render::SpliceHints). `kaizen init` writes the same section into the agent's hints file.
#pragma once

#include <string>

#include "cli/commands.h"
#include "kaizen/status.h"

namespace kaizen::cli {

// The section for the home `c.home` as of `c.now` (the system clock when empty, `end` the newest
// event). A home that does not exist gives the section of an empty log and is not created.
// Unreadable log lines are reported on stderr. `project`: the directory or name of the project
// the file is read in (render::HintsInputFrom).
Result<std::string> LearnedHintsSection(const Common& c, const std::string& project);

}  // namespace kaizen::cli
