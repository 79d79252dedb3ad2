// The project behind `kaizen demo`'s review queue: a git repository holding, for each file the
// pending work names, the file before the agent's change (committed) and after it (in the working
// tree), so `kaizen serve --root` shows each review item with a real diff, read from git as it
// would be in the user's own project.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::sim {

// One pending work product, as the queue holds it.
struct DemoWork {
  std::string path;     // relative to the project, as the work event names it
  std::string summary;  // what the agent says it did
};

// Creates `dir` as a git repository (the `git` program) with the files `work` names: a first
// commit of each file as it was, then the agent's past commits of other files over some three
// weeks up to `now_ms`, the last of them in the current month, with a person's fixes and one revert
// among them (what `kaizen git scan` reads seed 001's automatic signals from), then the agent's
// pending change uncommitted.
// Files of the same path are written once; paths that are not text (a design file) are left out.
// Returns how many files were written; with none, `dir` is not made. Git runs in `dir` alone,
// whatever the caller's git environment and configuration say. FailedPrecondition when `dir` exists
// or git fails, IoError when a file cannot be written; on failure nothing of `dir` is left.
Result<size_t> WriteDemoProject(const std::string& dir, const std::vector<DemoWork>& work,
                                int64_t now_ms);

}  // namespace kaizen::sim
