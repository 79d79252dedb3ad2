// libFuzzer target for `<home>/config/checks.json` (checks/machine_check.h): the bytes are the
// file. ParseChecksJson runs on them. Nothing may crash, leak or hang, and:
//   - a refused file appends no check, leaves the settings as they were and says why, the file
//     name first;
//   - an accepted check has a rule and exactly one of require, forbid and command, each pattern
//     it names compiled; its regex checks run over a few small files and report only those;
//   - the glob language itself: the bytes up to the first newline are also a glob and the rest a
//     path. GlobMatch (RE2) must agree with the backtracking matcher it replaced, kept below as
//     the reference, whenever both are short enough for the reference to finish.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "checks/default_checks.h"
#include "checks/machine_check.h"
#include "learn/config_json.h"

namespace {

using namespace kaizen;
using namespace kaizen::checks;

constexpr std::string_view kFile = "fuzz-checks.json";
constexpr size_t kReferenceMaxGlob = 16;
constexpr size_t kReferenceMaxPath = 32;

// --- the reference: the glob matcher of 0398b99, exponential in the number of `*`s ------------

bool RefClass(std::string_view glob, size_t i, char c, size_t* end) {
  size_t j = i + 1;
  bool negate = false;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) {
    negate = true;
    ++j;
  }
  bool match = false;
  for (bool first = true; j < glob.size() && (first || glob[j] != ']'); first = false) {
    char lo = glob[j];
    if (lo == '\\' && j + 1 < glob.size()) lo = glob[++j];
    char hi = lo;
    if (j + 2 < glob.size() && glob[j + 1] == '-' && glob[j + 2] != ']') {
      hi = glob[j + 2];
      if (hi == '\\' && j + 3 < glob.size()) {
        hi = glob[j + 3];
        ++j;
      }
      j += 2;
    }
    if (c >= lo && c <= hi) match = true;
    ++j;
  }
  *end = j + 1;
  return match != negate && c != '/';
}

bool RefMatch(std::string_view g, std::string_view p) {
  size_t gi = 0, pi = 0;
  while (gi < g.size()) {
    const char c = g[gi];
    if (c == '*' && gi + 1 < g.size() && g[gi + 1] == '*' && (gi == 0 || g[gi - 1] == '/') &&
        (gi + 2 == g.size() || g[gi + 2] == '/')) {
      if (gi + 2 == g.size()) return true;
      std::string_view rest = g.substr(gi + 3);
      if (RefMatch(rest, p.substr(pi))) return true;
      for (size_t k = pi; k < p.size(); ++k) {
        if (p[k] == '/' && RefMatch(rest, p.substr(k + 1))) return true;
      }
      return false;
    }
    if (c == '*') {
      std::string_view rest = g.substr(gi + 1);
      while (!rest.empty() && rest[0] == '*') rest.remove_prefix(1);
      for (size_t k = pi;; ++k) {
        if (RefMatch(rest, p.substr(k))) return true;
        if (k == p.size() || p[k] == '/') return false;
      }
    }
    if (pi == p.size()) return false;
    if (c == '?') {
      if (p[pi] == '/') return false;
      ++gi, ++pi;
      continue;
    }
    if (c == '[') {
      size_t end = 0;
      if (!RefClass(g, gi, p[pi], &end)) return false;
      gi = end, ++pi;
      continue;
    }
    char lit = c;
    if (c == '\\' && gi + 1 < g.size()) lit = g[++gi];
    if (p[pi] != lit) return false;
    ++gi, ++pi;
  }
  return pi == p.size();
}

// --- the file -----------------------------------------------------------------------------------

std::vector<CheckedFile> Files() {
  return {{"t/src/a.ts", "src/a.ts", "const x = 1;\n// TODO retry\nfetch(url)\n"},
          {"t/README.md", "README.md", "# Title\n\nSome docs.\n"},
          {"t/deep/x/y.py", "deep/x/y.py", "def f():\n    pass\n"},
          {"t/empty", "empty", ""}};
}

bool FromFiles(std::string_view location, const std::vector<CheckedFile>& files) {
  for (const CheckedFile& f : files) {
    if (location.substr(0, f.path.size()) == f.path) return true;
  }
  return false;
}

void CheckAccepted(const std::vector<CheckSpec>& specs) {
  const std::vector<CheckedFile> files = Files();
  for (const CheckSpec& spec : specs) {
    if (spec.rule.empty()) std::abort();
    const int kinds = !spec.require.empty() + !spec.forbid.empty() + !spec.command.empty();
    if (kinds != 1) std::abort();
    if ((spec.require_re != nullptr) != !spec.require.empty()) std::abort();
    if ((spec.forbid_re != nullptr) != !spec.forbid.empty()) std::abort();
    if ((spec.when_re != nullptr) != !spec.when.empty()) std::abort();
    if ((spec.glob_re != nullptr) != !spec.glob.empty()) std::abort();
    if (!GlobProblem(spec.glob).empty()) std::abort();
    if (spec.origin.substr(0, kFile.size()) != kFile) std::abort();
    if (!spec.command.empty()) continue;  // never run: it would execute whatever the bytes name
    const CheckRun run = RunRegexCheck(spec, files);
    for (const learn::CheckFinding& finding : run.findings) {
      if (!FromFiles(finding.location, files)) std::abort();
    }
    if (!run.applied && !run.findings.empty()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  std::vector<CheckSpec> specs = {CheckSpec{}};  // one already there: a refusal must keep it alone
  learn::SelfCheckConfig config;
  const std::string before = learn::ConfigJson(config.Fields());
  Status s = ParseChecksJson(text, kFile, &specs, &config);
  if (s.ok()) {
    specs.erase(specs.begin());
    CheckAccepted(specs);
    static const std::vector<CheckSpec> defaults = DefaultChecks().value();
    const std::vector<CheckSpec> merged = MergeChecks(defaults, specs);
    if (merged.size() < specs.size()) std::abort();
  } else {
    if (s.code() != StatusCode::kInvalidArgument) std::abort();
    if (s.message().substr(0, kFile.size() + 2) != std::string(kFile) + ": ") std::abort();
    if (specs.size() != 1) std::abort();
    if (learn::ConfigJson(config.Fields()) != before) std::abort();
  }

  const size_t newline = text.find('\n');
  const std::string_view glob = text.substr(0, newline);
  const std::string_view path =
      newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  const bool matched = GlobMatch(glob, path);
  if (!GlobProblem(glob).empty()) {
    if (matched) std::abort();  // a malformed glob matches nothing
  } else if (glob.size() <= kReferenceMaxGlob && path.size() <= kReferenceMaxPath) {
    if (matched != RefMatch(glob, path)) std::abort();
  }
  return 0;
}
