// The learned section of a hints file, as `kaizen hints FILE` writes it below the marker
// (render::SpliceHints). `kaizen init` writes the same section into the agent's hints file.
#pragma once

#include <string>

#include "home/common.h"
#include "kaizen/status.h"

namespace kaizen::home {

// The section for the home `c.home` as of `c.now` (the system clock when empty, `end` the newest
// event). A home that does not exist gives the section of an empty log and is not created.
// Unreadable log lines are reported on stderr. `project`: the directory or name of the project
// the file is read in (render::HintsInputFrom).
Result<std::string> LearnedHintsSection(const Common& c, const std::string& project);

// Writes a learned hints section (render::HintsSection) below the marker of a hints file,
// created when missing, never touching a byte above the marker. True when the file changed.
Result<bool> WriteHintsSection(const std::string& section, const std::string& file);

}  // namespace kaizen::home
