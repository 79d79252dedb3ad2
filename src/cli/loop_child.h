// Runs one of the user's own command lines (`kaizen loop --evaluate/--refine`) as a child process
// under /bin/sh -c, bounded: a deadline (the child's whole process group is killed when it
// passes), a cap on the standard output kept, and standard input that is never the terminal.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::cli {

struct ChildSpec {
  std::string command;               // handed to /bin/sh -c as is
  std::vector<std::string> env;      // NAME=value pairs set (replacing) in the child's environment
  std::optional<std::string> input;  // written to its stdin, then closed; nullopt: /dev/null
  double timeout_seconds = 0;        // > 0: killed (SIGKILL to its process group) when it passes
  size_t output_cap = 1 << 20;       // stdout bytes kept; the rest is read and dropped
  bool output_to_stderr = false;     // stdout goes to our stderr instead of being captured
};

struct ChildResult {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // the signal that ended it (SIGKILL after a timeout)
  bool timed_out = false;
  bool interrupted = false;  // we got SIGINT or SIGTERM while it ran; it was killed
  std::string output;        // its stdout, up to output_cap bytes
  bool output_truncated = false;
  double seconds = 0;

  bool succeeded() const { return !timed_out && !interrupted && signal == 0 && exit_code == 0; }
  // "exit status 2", "killed by signal 9", "timed out after 3.0 s", "interrupted".
  std::string Outcome(double timeout_seconds) const;
};

// Routes SIGINT and SIGTERM to the running child's process group for the life of this object
// (children run in their own group, so the terminal's Ctrl-C would not reach them), and ignores
// SIGPIPE (a child that does not read its stdin). Restores the previous handlers when destroyed.
class ChildSignalGuard {
 public:
  ChildSignalGuard();
  ~ChildSignalGuard();
  ChildSignalGuard(const ChildSignalGuard&) = delete;
  ChildSignalGuard& operator=(const ChildSignalGuard&) = delete;
  // True once SIGINT or SIGTERM arrived.
  static bool Interrupted();
};

// A system failure (pipe, fork) is a non-OK status; whatever the child did is in the result.
Result<ChildResult> RunChild(const ChildSpec& spec);

}  // namespace kaizen::cli
