// The change a reviewer should see for one file of a git working tree (the web review modal's
// "diff and summary" presentation, seed 000 §3.5).
#pragma once

#include <string>

#include "kaizen/status.h"

namespace kaizen::signals {

struct FileDiff {
  std::string text;    // a unified diff (git's patch format); empty when nothing changed
  std::string source;  // "working tree" or "commit <sha7>: <subject>"
};

// The uncommitted change of `path` (the working tree against HEAD); when there is none, the last
// commit that changed it, against its first parent (the root commit against nothing), looking at
// most `max_commits` back. `path` is absolute, inside the repository that contains it. NotFound
// when the file is in no repository, or the repository never changed it; IoError for libgit2
// failures.
Result<FileDiff> DiffOfFile(const std::string& path, int max_commits = 1000);

}  // namespace kaizen::signals
