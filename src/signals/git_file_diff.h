// The change a reviewer should see of a work version (the review page's "diff and summary"
// presentation, seed 000 §3.5): the agent's own change, never a later commit's.
#pragma once

#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::signals {

struct FileDiff {
  std::string text;    // a unified diff (git's patch format)
  std::string source;  // "working tree", "commit <sha7>: <subject>" or "commits <a7>..<b7>"
};

// The change of `paths` (absolute; files, or a directory for the whole repository), all in the
// repository that contains the first:
//  - `commit` empty: the uncommitted change, the working tree against HEAD (untracked files
//    included); NotFound when there is none.
//  - `commit` a revision: that commit against its first parent (a root commit against nothing);
//  - `commit` BASE..HEAD: the tree of HEAD against the tree of BASE;
//  - `commit` BASE...HEAD: against the merge base of the two (a pull request's change).
// NotFound when a path is in no repository or outside it, the revision is unknown, or the change
// does not touch the paths; IoError for libgit2 failures.
Result<FileDiff> DiffOfPaths(const std::vector<std::string>& paths, const std::string& commit);

}  // namespace kaizen::signals
