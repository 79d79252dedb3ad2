#include "cli/loop_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "base/fd.h"

extern char** environ;

namespace kaizen::cli {
namespace {

volatile sig_atomic_t g_interrupted = 0;
volatile sig_atomic_t g_child_group = 0;  // the running child's process group, 0 when none

extern "C" void OnInterrupt(int) {
  g_interrupted = 1;
  if (g_child_group > 0) ::kill(-g_child_group, SIGKILL);
}

struct sigaction g_old_int, g_old_term, g_old_pipe;

using base::Fd;

Status Pipe(base::Fd* read_end, base::Fd* write_end) {
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

}  // namespace

std::string ChildResult::Outcome(double timeout_seconds) const {
  if (interrupted) return "interrupted";
  if (timed_out) return fmt::format("timed out after {:.1f} s and was killed", timeout_seconds);
  if (signal != 0) return fmt::format("killed by signal {} ({})", signal, ::strsignal(signal));
  return fmt::format("exit status {}", exit_code);
}

ChildSignalGuard::ChildSignalGuard() {
  g_interrupted = 0;
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
}

ChildSignalGuard::~ChildSignalGuard() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGPIPE, &g_old_pipe, nullptr);
}

bool ChildSignalGuard::Interrupted() { return g_interrupted != 0; }

Result<ChildResult> RunChild(const ChildSpec& spec) {
  base::Fd out_read, out_write, in_read, in_write;
  if (!spec.output_to_stderr) KZ_RETURN_IF_ERROR(Pipe(&out_read, &out_write));
  if (spec.input) KZ_RETURN_IF_ERROR(Pipe(&in_read, &in_write));
  base::Fd dev_null;
  if (!spec.input) {
    dev_null.Reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (dev_null.get() < 0) return IoError(fmt::format("/dev/null: {}", std::strerror(errno)));
  }
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> env = ChildEnvironment(spec.env);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string sh = "sh", dash_c = "-c", command = spec.command;
  char* argv[] = {sh.data(), dash_c.data(), command.data(), nullptr};

  const Clock::time_point start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) return IoError(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    ::setpgid(0, 0);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(SIGPIPE, &dfl, nullptr);  // an ignored signal would stay ignored across exec
    ::dup2(spec.input ? in_read.get() : dev_null.get(), 0);
    ::dup2(spec.output_to_stderr ? 2 : out_write.get(), 1);
    ::execve("/bin/sh", argv, envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: whichever runs first, the group exists before we signal it
  g_child_group = pid;
  if (g_interrupted) ::kill(-pid, SIGKILL);
  out_write.Close();
  in_read.Close();
  if (in_write.get() >= 0) ::fcntl(in_write.get(), F_SETFL, O_NONBLOCK);

  ChildResult r;
  size_t written = 0;
  const std::string_view input = spec.input ? std::string_view(*spec.input) : std::string_view();
  if (spec.input && input.empty()) in_write.Close();
  bool exited = false;
  int status = 0;
  int reads_after_exit = 0;  // bounded: a background process could write for ever
  char buf[65536];
  while (true) {
    if (!exited) {
      pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == pid) exited = true;
    }
    if (exited && out_read.get() < 0) break;
    if (!exited && spec.timeout_seconds > 0 && SecondsSince(start) >= spec.timeout_seconds) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      exited = true;
      break;
    }
    if (!exited && g_interrupted) {
      r.interrupted = true;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      exited = true;
      break;
    }
    pollfd fds[2];
    nfds_t n = 0;
    int out_slot = -1, in_slot = -1;
    if (out_read.get() >= 0) {
      out_slot = static_cast<int>(n);
      fds[n++] = {out_read.get(), POLLIN, 0};
    }
    if (in_write.get() >= 0) {
      in_slot = static_cast<int>(n);
      fds[n++] = {in_write.get(), POLLOUT, 0};
    }
    // Short waits: the child's exit and the deadline are checked between them. Once the child
    // has exited, only what is already in the pipe is read (a process it left running in the
    // background may hold the pipe open for ever).
    int ready = ::poll(fds, n, exited ? 0 : 20);
    if (ready < 0 && errno != EINTR) return IoError(fmt::format("poll: {}", std::strerror(errno)));
    if (ready <= 0 || (exited && ++reads_after_exit > 1024)) {
      if (exited) break;
      continue;
    }
    if (in_slot >= 0 && (fds[in_slot].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t k = ::write(in_write.get(), input.data() + written, input.size() - written);
      if (k > 0) written += static_cast<size_t>(k);
      if ((k < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        in_write.Close();  // all written, or the child closed its stdin (EPIPE)
      }
    }
    if (out_slot >= 0 && (fds[out_slot].revents & (POLLIN | POLLERR | POLLHUP))) {
      ssize_t k = ::read(out_read.get(), buf, sizeof buf);
      if (k > 0) {
        size_t keep = std::min(static_cast<size_t>(k), spec.output_cap - r.output.size());
        r.output.append(buf, keep);
        if (keep < static_cast<size_t>(k)) r.output_truncated = true;
      } else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
        out_read.Close();
      }
    }
  }
  g_child_group = 0;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (!r.timed_out && r.signal == SIGKILL && g_interrupted) r.interrupted = true;
  r.seconds = SecondsSince(start);
  return r;
}

}  // namespace kaizen::cli
