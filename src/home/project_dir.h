// Which project a directory belongs to (issue 30 item 5): the nearest directory at or above it
// that holds `.git` (a clone's top, or a linked worktree's), else the directory itself. Its
// name is the project's (model::ProjectKey), so an agent working in webapp/src is told webapp's
// rules, and a prompt said there is filed under webapp.
#pragma once

#include <string>
#include <vector>

namespace kaizen::home {

// `dir` made absolute and normal, then walked up; it need not exist. Empty in, empty out.
std::string ProjectDirectory(const std::string& dir);

// A hints file to keep (<home>/config/hints.json) and the project it is read in: its own
// directory's, so a home that serves several clones writes each its own project's rules.
struct HintsTarget {
  std::string path;     // relative entries are under `dir`
  std::string project;  // ProjectDirectory of the file's directory
};
std::vector<HintsTarget> HintsTargets(const std::string& dir,
                                      const std::vector<std::string>& files);

}  // namespace kaizen::home
