// Machine checks: how a learned rule is checked on the agent's files before review (seed 000
// §6.1 evaluateRule). A check belongs to a rule by id and is one of
//   require  an RE2 regex each file must match (a miss is reported for the file),
//   forbid   an RE2 regex no file may match (each hit is reported as file:line),
//   command  an external program run on the files (argv + the file paths, no shell); a
//            non-zero exit is a violation, its captured output the detail.
// `glob` picks the files (all of them when absent), `when` narrows a check to the files it
// matches. Specs come from <home>/config/checks.json merged over the shipped defaults
// (checks/default_checks.h): a rule named in the file loses all its default checks.
//
// Files: each PATH is a file or a directory. A directory is walked recursively in byte order of
// names; these directories are skipped when met during the walk (never when given as PATH):
// version control (.git .hg .svn), dependencies and caches (node_modules vendor .venv venv
// __pycache__ .tox .mypy_cache .pytest_cache), build output (build dist out target and
// build-*/cmake-build-*), and .kaizen. Symbolic links are not followed. Files over 1 MiB and
// binary files (a NUL byte in the first 8 KiB) are skipped and listed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "learn/rules/self_check.h"

namespace re2 {
class RE2;
}

namespace kaizen::checks {

struct CheckSpec {
  std::string rule;    // the rule id it checks ("rule-retries"); may name no rule yet
  std::string origin;  // where it came from, for messages: "checks.json checks[1]"
  std::string glob;    // empty: every file
  std::string when, require, forbid;  // RE2 patterns as written; one of require/forbid/command
  std::vector<std::string> command;   // argv; argv[0] is looked up in PATH
  std::string message;                // the finding's detail; empty: a generated one
  std::string fix;                    // overrides the rule's fix suggestion when set
  std::shared_ptr<const re2::RE2> glob_re, when_re, require_re, forbid_re;
};

inline constexpr size_t kMaxCheckedFileBytes = 1 << 20;
inline constexpr size_t kCommandOutputCap = 4096;
inline constexpr size_t kMaxFindingsPerRule = 20;

// Parses a checks document {"checks": [spec...], "check": {settings}}; `file` names it in
// errors. Settings are the `check.*` keys of learn::SelfCheckConfig, applied to *config.
// A refused document changes neither. InvalidArgument names the file, the JSON path, the value
// and the rule broken, e.g.
// `checks.json: checks[1].forbid: "(" is not a valid regex (rule rule-types): missing )`.
Status ParseChecksJson(std::string_view json, std::string_view file, std::vector<CheckSpec>* specs,
                       learn::SelfCheckConfig* config);

// `base` with every spec of a rule that `over` names replaced by `over`'s specs for it.
std::vector<CheckSpec> MergeChecks(const std::vector<CheckSpec>& base,
                                   const std::vector<CheckSpec>& over);

// Glob match on '/'-separated paths: `*` any run of characters but '/', `?` one character but
// '/', `[abc]`, `[a-z]`, `[!a-z]`/`[^a-z]` one character of (not of) the set, `**` as a whole
// segment any number of segments (zero included: `**/*.ts` matches `a.ts`). Everything else,
// and `\x`, matches itself. Bytes, not characters: `?` is one byte of a UTF-8 name. Time linear in
// the path's length (RE2), whatever the glob. Compiles the glob on each call; a parsed check
// holds its compiled glob.
bool GlobMatch(std::string_view glob, std::string_view path);
// Empty when `glob` is well formed, else why not (an unclosed `[`, a trailing `\`).
std::string GlobProblem(std::string_view glob);

struct CheckedFile {
  std::string path;      // as printed and given to commands: the PATH argument joined
  std::string relative;  // what globs match: relative to a directory PATH, a file PATH's name
  std::string bytes;
};
struct SkippedFile {
  std::string path;
  std::string why;
};

// Collects the files under `paths` (see the header comment), in order, each once.
// InvalidArgument names a PATH that does not exist or is neither a file nor a directory.
Status CollectFiles(const std::vector<std::string>& paths, std::vector<CheckedFile>* files,
                    std::vector<SkippedFile>* skipped);

// What one check found.
struct CheckRun {
  bool applied = false;  // a file matched its glob (and `when`), or its command ran
  std::vector<learn::CheckFinding> findings;
  bool cut = false;  // a file had more hits than were searched for (kMaxHitsPerFile)
};
// A forbid pattern's hits searched for per file: one past what a rule shows, so it is known that
// there are more. Each search after a hit may scan the rest of the file (RE2 must see every
// earlier-starting match attempt die), so counting every hit was quadratic: a 1 MB file of
// `catch(catch{}` took 58 s against the default error-handling check.
inline constexpr size_t kMaxHitsPerFile = kMaxFindingsPerRule + 1;
CheckRun RunRegexCheck(const CheckSpec& spec, const std::vector<CheckedFile>& files);
CheckRun RunCommandCheck(const CheckSpec& spec, const std::vector<CheckedFile>& files,
                         double timeout_seconds);

// Every spec whose rule is in `rule_ids`, grouped into one learn::RuleCheck per rule id that has
// specs (in `rule_ids` order). At most kMaxFindingsPerRule findings per rule, then one saying
// how many more ("... and more" when a file's hits were not all searched for).
std::vector<learn::RuleCheck> RunChecks(const std::vector<CheckSpec>& specs,
                                        const std::vector<std::string>& rule_ids,
                                        const std::vector<CheckedFile>& files,
                                        double timeout_seconds);

}  // namespace kaizen::checks
