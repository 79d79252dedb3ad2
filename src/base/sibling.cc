#include "base/sibling.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <simdjson.h>

extern char** environ;

namespace kaizen::base {
namespace {

std::vector<char*> Argv(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

std::string SiblingPath(const std::string& name) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return name;
  return (self.parent_path() / name).string();
}

Status ExecSibling(const std::string& name, const std::vector<std::string>& args) {
  const std::string path = SiblingPath(name);
  std::vector<char*> argv = Argv(path, args);
  ::execv(path.c_str(), argv.data());
  return IoError(
      fmt::format("cannot run {}: {} (it is installed beside kaizen)", path, std::strerror(errno)));
}

Result<SiblingRun> RunSibling(const std::string& name, const std::vector<std::string>& args,
                              size_t max_bytes) {
  const std::string path = SiblingPath(name);
  std::vector<char*> argv = Argv(path, args);
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return IoError(fmt::format("pipe: {}", std::strerror(errno)));
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return IoError(fmt::format("pipe: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(err[1]);
  if (spawned != 0) {
    ::close(out[0]);
    ::close(err[0]);
    return IoError(fmt::format("cannot run {}: {} (it is installed beside kaizen)", path,
                               std::strerror(spawned)));
  }
  // Both pipes read together: a child that fills one while the other is read would wait forever.
  SiblingRun run;
  std::array<pollfd, 2> fds{{{out[0], POLLIN, 0}, {err[0], POLLIN, 0}}};
  std::array<std::string*, 2> into{&run.out, &run.err};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        const size_t room = max_bytes - std::min(max_bytes, into[i]->size());
        into[i]->append(buffer, std::min(room, static_cast<size_t>(n)));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const pollfd& p : fds) {
    if (p.fd >= 0) ::close(p.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

Result<GitDiff> RunGitDiff(const std::vector<std::string>& paths, const std::string& commit) {
  constexpr size_t kMaxAnswerBytes = size_t{8} << 20;  // a longer diff is not shown
  std::vector<std::string> args = {"file-diff"};
  args.insert(args.end(), paths.begin(), paths.end());
  if (!commit.empty()) {
    args.push_back("--commit");
    args.push_back(commit);
  }
  KZ_ASSIGN_OR_RETURN(SiblingRun run, RunSibling(kGitProgram, args, kMaxAnswerBytes));
  if (run.exit_code != 0) {
    std::string why = run.err;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    return NotFound(why.empty() ? fmt::format("{} exited {}", kGitProgram, run.exit_code) : why);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view text, source;
  if (parser.parse(run.out).get(doc) != simdjson::SUCCESS ||
      doc["text"].get(text) != simdjson::SUCCESS ||
      doc["source"].get(source) != simdjson::SUCCESS) {
    return IoError(fmt::format("{} answered {} bytes that are not its JSON (cut at {})",
                               kGitProgram, run.out.size(), kMaxAnswerBytes));
  }
  return GitDiff{std::string(text), std::string(source)};
}

}  // namespace kaizen::base
