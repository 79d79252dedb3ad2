#include "base/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "base/fd.h"
#include "base/quote.h"

extern char** environ;

namespace kaizen::base {
namespace {

// Lock-free atomics: safe in the signal handler, and for the threads of `kaizen serve` that run
// machine checks at once. Only a run while a guard is alive sets a group: `kaizen loop`, one
// thread; a guard in a process that runs several at once would see only the last.
std::atomic<bool> g_guarded{false};      // an InterruptGuard is alive
std::atomic<bool> g_interrupted{false};  // it saw SIGINT or SIGTERM
std::atomic<pid_t> g_child_group{0};     // the guarded subprocess's process group, 0 when none
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

extern "C" void OnInterrupt(int) {
  g_interrupted = true;
  if (const pid_t group = g_child_group; group > 0) ::kill(-group, SIGKILL);
}

struct sigaction g_old_int, g_old_term, g_old_pipe;

Status Pipe(Fd* read_end, Fd* write_end) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return IoError(fmt::format("pipe: {}", std::strerror(errno)));
  read_end->Reset(p[0]);
  write_end->Reset(p[1]);
  return Status::Ok();
}

// The environment with `extra` set, each replacing a variable of the same name.
std::vector<std::string> ChildEnvironment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view v(*e);
    bool replaced = false;
    for (const std::string& x : extra) {
      size_t eq = x.find('=');
      if (v.size() > eq && v.substr(0, eq + 1) == std::string_view(x).substr(0, eq + 1))
        replaced = true;
    }
    if (!replaced) env.emplace_back(v);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Reads what `fd` has into `into` up to `cap` bytes, dropping the rest; closes it at its end.
void Drain(Fd* fd, std::string* into, bool* truncated, size_t cap) {
  char buf[65536];
  const ssize_t k = ::read(fd->get(), buf, sizeof buf);
  if (k > 0) {
    const size_t keep = std::min(static_cast<size_t>(k), cap - std::min(cap, into->size()));
    into->append(buf, keep);
    if (keep < static_cast<size_t>(k)) *truncated = true;
  } else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
    fd->Close();
  }
}

// write(2) to a pipe whose reader may have gone: EPIPE, never a SIGPIPE that would end kaizen.
// The signal is blocked for this thread during the write and a pending one taken back.
ssize_t WriteNoSigpipe(int fd, std::string_view bytes) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  const ssize_t k = ::write(fd, bytes.data(), bytes.size());
  const int err = errno;
  if (k < 0 && err == EPIPE && !sigismember(&old, SIGPIPE)) {
    const timespec no_wait{0, 0};
    while (::sigtimedwait(&pipe_only, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return k;
}

// The spawn's file actions and attributes, destroyed with it.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

}  // namespace

// The file execvp would run for `name`: itself when it holds a '/', else the first executable of
// that name on the child's PATH; `name` itself when none is.
std::string FoundOnPath(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  for (const std::string& e : env) {
    if (e.starts_with("PATH=")) path = e.c_str() + 5;
  }
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    const std::string file = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(file.c_str(), X_OK) == 0) return file;
    if (colon == std::string_view::npos) return name;
    dirs.remove_prefix(colon + 1);
  }
}

std::string SubprocessResult::Outcome(double timeout_seconds) const {
  if (interrupted) return "interrupted";
  if (timed_out) return fmt::format("timed out after {:.1f} s and was killed", timeout_seconds);
  if (signal != 0) return fmt::format("killed by signal {} ({})", signal, ::strsignal(signal));
  return fmt::format("exit status {}", exit_code);
}

InterruptGuard::InterruptGuard() {
  g_interrupted = false;
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: poll() returns EINTR and the loop sees the flag
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
  struct sigaction ign {};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  ::sigaction(SIGPIPE, &ign, &g_old_pipe);
  g_guarded = true;
}

InterruptGuard::~InterruptGuard() {
  g_guarded = false;
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGPIPE, &g_old_pipe, nullptr);
}

bool InterruptGuard::Interrupted() { return g_interrupted; }

Result<SubprocessResult> RunSubprocess(const Subprocess& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) return InvalidArgument("no program given");
  Fd out_read, out_write, err_read, err_write, in_read, in_write;
  if (!spec.stdout_to_our_stderr) KZ_RETURN_IF_ERROR(Pipe(&out_read, &out_write));
  if (spec.stderr_to == Subprocess::Stderr::kCaptured) {
    KZ_RETURN_IF_ERROR(Pipe(&err_read, &err_write));
  }
  if (spec.input) KZ_RETURN_IF_ERROR(Pipe(&in_read, &in_write));

  SpawnSetup setup;
  if (spec.input) {
    posix_spawn_file_actions_adddup2(&setup.actions, in_read.get(), STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  if (spec.stdout_to_our_stderr) {
    posix_spawn_file_actions_adddup2(&setup.actions, STDERR_FILENO, STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_adddup2(&setup.actions, out_write.get(), STDOUT_FILENO);
  }
  if (spec.stderr_to == Subprocess::Stderr::kCaptured) {
    posix_spawn_file_actions_adddup2(&setup.actions, err_write.get(), STDERR_FILENO);
  } else if (spec.stderr_to == Subprocess::Stderr::kWithStdout && !spec.stdout_to_our_stderr) {
    posix_spawn_file_actions_adddup2(&setup.actions, out_write.get(), STDERR_FILENO);
  }
  // SIGPIPE as a program expects it: an ignored signal stays ignored across exec, and kaizen
  // ignores SIGPIPE while it serves or runs a loop.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&setup.attr, &defaults);
  // Nothing of ours beyond the three standard streams: `kaizen serve`'s sockets (Asio opens them
  // without close-on-exec) would otherwise outlive it in whatever a check leaves running. And no
  // signal blocked: serve blocks SIGINT and SIGTERM in its threads, and a program's own `timeout`
  // or test runner needs them.
  posix_spawn_file_actions_addclosefrom_np(&setup.actions, 3);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, spec.cwd.c_str());
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&setup.attr, &none);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (spec.own_process_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&setup.attr, 0);
  }
  posix_spawnattr_setflags(&setup.attr, flags);

  std::vector<std::string> env;
  std::vector<char*> envp;
  if (!spec.env.empty()) {
    env = ChildEnvironment(spec.env);
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const Clock::time_point start = Clock::now();
  pid_t pid = 0;
  // glibc's posix_spawn returns once the program is running or has failed to start, with the
  // exec's errno: a missing program is an error here, not an exit status 127.
  char* const* child_env = spec.env.empty() ? environ : envp.data();
  int spawned = ::posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), child_env);
  if (spawned == ENOEXEC) {
    // A script without a #! line: run by the shell, as execvp (and so a shell) would.
    const std::string file = FoundOnPath(spec.argv[0], spec.env);
    std::vector<char*> by_shell = {const_cast<char*>("/bin/sh"), const_cast<char*>(file.c_str())};
    by_shell.insert(by_shell.end(), argv.begin() + 1, argv.end());
    spawned =
        ::posix_spawn(&pid, "/bin/sh", &setup.actions, &setup.attr, by_shell.data(), child_env);
  }
  if (spawned != 0) {
    return IoError(fmt::format("{}: {}", QuoteForMessage(spec.argv[0]), std::strerror(spawned)));
  }
  const pid_t group = spec.own_process_group ? pid : 0;
  auto kill_it = [&] {
    if (group > 0) ::kill(-group, SIGKILL);
    ::kill(pid, SIGKILL);
  };
  const bool guarded = g_guarded && group > 0;
  if (guarded) g_child_group = group;
  out_write.Close();
  err_write.Close();
  in_read.Close();
  if (in_write.get() >= 0) ::fcntl(in_write.get(), F_SETFL, O_NONBLOCK);

  SubprocessResult r;
  size_t written = 0;
  const std::string_view input = spec.input ? std::string_view(*spec.input) : std::string_view();
  if (spec.input && input.empty()) in_write.Close();
  bool exited = false;
  int status = 0;
  int reads_after_exit = 0;  // bounded: a process it left in the background could write for ever
  auto reap = [&] {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    exited = true;
    if (guarded) g_child_group = 0;  // reaped: its group may be reused
  };
  while (true) {
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      if (guarded) g_child_group = 0;  // reaped: its group may be reused
    }
    if (exited && out_read.get() < 0 && err_read.get() < 0) break;
    if (!exited && spec.timeout_seconds > 0 && SecondsSince(start) >= spec.timeout_seconds) {
      r.timed_out = true;
      kill_it();
      reap();
      break;
    }
    if (!exited && g_guarded && g_interrupted) {
      r.interrupted = true;
      kill_it();
      reap();
      break;
    }
    pollfd fds[3];
    nfds_t n = 0;
    int out_slot = -1, err_slot = -1, in_slot = -1;
    if (out_read.get() >= 0) {
      out_slot = static_cast<int>(n);
      fds[n++] = {out_read.get(), POLLIN, 0};
    }
    if (err_read.get() >= 0) {
      err_slot = static_cast<int>(n);
      fds[n++] = {err_read.get(), POLLIN, 0};
    }
    if (in_write.get() >= 0) {
      in_slot = static_cast<int>(n);
      fds[n++] = {in_write.get(), POLLOUT, 0};
    }
    // Short waits: the program's exit, the deadline and an interrupt are checked between them.
    // Once it has exited, only what is already in the pipes is read (a process it left running
    // may hold them open for ever).
    const int ready = ::poll(n ? fds : nullptr, n, exited ? 0 : 20);
    if (ready < 0 && errno != EINTR) {
      const int err = errno;
      if (!exited) {
        kill_it();
        reap();
      }
      if (guarded) g_child_group = 0;
      return IoError(fmt::format("poll: {}", std::strerror(err)));
    }
    if (ready <= 0 || (exited && ++reads_after_exit > 1024)) {
      if (exited) break;
      continue;
    }
    if (in_slot >= 0 && (fds[in_slot].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t k = WriteNoSigpipe(in_write.get(), input.substr(written));
      if (k > 0) written += static_cast<size_t>(k);
      if ((k < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        in_write.Close();  // all written, or the program closed its stdin (EPIPE)
      }
    }
    if (out_slot >= 0 && (fds[out_slot].revents & (POLLIN | POLLERR | POLLHUP))) {
      Drain(&out_read, &r.out, &r.out_truncated, spec.output_cap);
    }
    if (err_slot >= 0 && (fds[err_slot].revents & (POLLIN | POLLERR | POLLHUP))) {
      Drain(&err_read, &r.err, &r.err_truncated, spec.output_cap);
    }
  }
  if (guarded) g_child_group = 0;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !r.timed_out) r.signal = WTERMSIG(status);
  // The handler killed it while we waited for it: an interrupt, not a signal of its own.
  if (!r.timed_out && r.signal == SIGKILL && g_guarded && g_interrupted) r.interrupted = true;
  r.seconds = SecondsSince(start);
  return r;
}

}  // namespace kaizen::base
