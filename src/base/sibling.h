// The programs installed beside `kaizen`. `kaizen-git` holds what reads git repositories (libgit2
// and the libraries it loads: TLS, SSH, Kerberos): kept out of `kaizen` itself, they cost every
// call about 9 ms of dynamic loading before main() (docs/performance.md, "Process start"), and a
// hook runs on every tool call. `kaizen git ...` runs it; `kaizen serve` asks it for diffs.
#pragma once

#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::base {

inline constexpr char kGitProgram[] = "kaizen-git";

// The path of `name` in the running executable's directory.
std::string SiblingPath(const std::string& name);

// Replaces this process with `name` (beside this executable) and `args`; returns only when it
// could not (the message names the path and why).
Status ExecSibling(const std::string& name, const std::vector<std::string>& args);

struct SiblingRun {
  int exit_code = 0;
  std::string out, err;  // what it wrote (each cut at `max_bytes`)
};

// Runs `name` with `args`, its standard input /dev/null, and waits. Safe in a threaded process
// (base/subprocess.h). IoError when it cannot be started.
Result<SiblingRun> RunSibling(const std::string& name, const std::vector<std::string>& args,
                              size_t max_bytes);

// The agent's change of `paths` (absolute, in one repository) as kaizen-git file-diff answers it:
// the working tree's uncommitted change when `commit` is empty, else that commit's or BASE..HEAD
// range's (signals/git_file_diff.h). NotFound, with kaizen-git's reason, when there is none.
struct GitDiff {
  std::string text;    // a unified diff
  std::string source;  // "working tree", "commit <sha7>: <subject>", "commits <a7>..<b7>"
};
Result<GitDiff> RunGitDiff(const std::vector<std::string>& paths, const std::string& commit);

}  // namespace kaizen::base
