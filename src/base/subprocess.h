// The one way kaizen runs another program and waits for it: a machine check's command, the
// user's `kaizen loop --evaluate/--refine` command lines, `kaizen-git` beside the binary.
// posix_spawn (safe in a threaded process such as `kaizen serve`), standard input that is never
// the terminal, output read while the program runs (it never blocks on a full pipe) and capped,
// an optional deadline after which the program's whole process group is killed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::base {

struct Subprocess {
  // argv[0] is looked up in PATH unless it holds a '/'.
  std::vector<std::string> argv;
  // NAME=value pairs set in the child's environment, each replacing a variable of that name.
  std::vector<std::string> env;
  // Its working directory; empty: ours.
  std::string cwd;
  // Written to its standard input, which is then closed; nullopt: /dev/null.
  std::optional<std::string> input;
  // > 0: when it passes, SIGKILL to the child's process group.
  double timeout_seconds = 0;
  // Bytes kept of each captured stream; the rest is read and dropped.
  size_t output_cap = size_t{1} << 20;
  enum class Stderr {
    kCaptured,    // into SubprocessResult::err
    kWithStdout,  // into the same pipe as stdout, interleaved as written
    kInherited,   // ours
  };
  Stderr stderr_to = Stderr::kCaptured;
  // Its standard output goes to our standard error instead of being captured (a command whose
  // output is for the person watching, not for kaizen).
  bool stdout_to_our_stderr = false;
  // A process group of its own, so a deadline or an interrupt kills what it spawned too. Off: it
  // stays in ours (the terminal's Ctrl-C reaches it).
  bool own_process_group = true;
};

struct SubprocessResult {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // the signal that ended it, unless it was killed for the deadline
  bool timed_out = false;
  bool interrupted = false;  // an InterruptGuard saw SIGINT or SIGTERM while it ran; it was killed
  std::string out, err;      // each up to output_cap bytes
  bool out_truncated = false, err_truncated = false;
  double seconds = 0;

  bool succeeded() const { return !timed_out && !interrupted && signal == 0 && exit_code == 0; }
  // "exit status 2", "killed by signal 9 (Killed)", "timed out after 3.0 s and was killed",
  // "interrupted".
  std::string Outcome(double timeout_seconds) const;
};

// IoError when it could not be started at all; the message names the program and why
// ("'no-such-tool': No such file or directory"). Whatever the program did is in the result.
Result<SubprocessResult> RunSubprocess(const Subprocess& spec);

// The file execvp would run for `name`: itself when it holds a '/', else the first executable of
// that name on PATH (`env`'s PATH= when it has one); `name` itself when none is.
std::string FoundOnPath(const std::string& name, const std::vector<std::string>& env);

// For its life, SIGINT and SIGTERM kill the running subprocess's process group (its own group
// does not get the terminal's Ctrl-C) and mark the run interrupted, and SIGPIPE is ignored (a
// program that does not read its input). The previous handlers come back when it is destroyed.
// One at a time, from the main thread (a process-wide handler).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  // True once SIGINT or SIGTERM arrived.
  static bool Interrupted();
};

}  // namespace kaizen::base
