#include "base/sibling.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <simdjson.h>

#include "base/subprocess.h"

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
  std::string path = SiblingPath(name);
  // Without /proc/self/exe, the name in the working directory: never another one on PATH.
  if (path.find('/') == std::string::npos) path = "./" + path;
  if (::access(path.c_str(), X_OK) != 0) {
    return IoError(fmt::format("cannot run {}: {} (it is installed beside kaizen)", path,
                               std::strerror(errno)));
  }
  Subprocess spec;
  spec.argv = {path};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.output_cap = max_bytes;
  spec.own_process_group = false;  // a helper of this call: the terminal's Ctrl-C ends it too
  KZ_ASSIGN_OR_RETURN(SubprocessResult ran, RunSubprocess(spec));
  SiblingRun run;
  run.exit_code = ran.signal != 0 ? 128 + ran.signal : ran.exit_code;
  run.out = std::move(ran.out);
  run.err = std::move(ran.err);
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
