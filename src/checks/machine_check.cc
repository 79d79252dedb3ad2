#include "checks/machine_check.h"

#include <re2/re2.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "base/subprocess.h"
#include "learn/config_json.h"
#include "model/json_access.h"

namespace kaizen::checks {
namespace {

using model::QuoteForMessage;

constexpr size_t kMaxShownBytes = 80;

std::string Show(simdjson::dom::element e) {
  std::string_view s;
  if (e.get_string().get(s) == simdjson::SUCCESS) return QuoteForMessage(s);
  std::string out = simdjson::minify(e);
  if (out.size() > kMaxShownBytes) out = out.substr(0, kMaxShownBytes - 3) + "...";
  return out;
}

// The error of one spec: `file: path: value rule (rule id)`.
struct SpecErrors {
  std::string_view file;
  std::string rule;  // the spec's rule id once known
  Status Fail(std::string_view path, std::string_view value, std::string_view why) const {
    return InvalidArgument(fmt::format("{}: {}: {} {}{}", file, path, value, why,
                                       rule.empty() ? "" : " (rule " + rule + ")"));
  }
};

// --- globs --------------------------------------------------------------------------------------

// One character against a `[...]` class starting at glob[i] == '['; *end is set past the `]`.
bool ClassMatch(std::string_view glob, size_t i, char c, size_t* end) {
  size_t j = i + 1;
  bool negate = false;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) {
    negate = true;
    ++j;
  }
  bool match = false;
  bool first = true;
  for (; j < glob.size() && (first || glob[j] != ']'); first = false) {
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
  *end = j + 1;  // past ']' (GlobProblem guarantees one)
  return match != negate && c != '/';
}

// The glob as an RE2 pattern over bytes (Latin-1: `?` is one byte, as a path is bytes), to be
// matched whole. RE2 matches in time linear in the path. The backtracking matcher this replaced
// took time growing with the path's length to the power of the number of `*`s:
// `*a*a*a*a*a*a*a*b` against a name of 26 `a`s took 11 ms, about 3.5 times as long per 4 more
// bytes, so hours for a 100-byte name. REQUIRES: GlobProblem(g) is empty.
std::string GlobPattern(std::string_view g) {
  std::string re;
  auto byte = [&re](char b) { re += fmt::format("\\x{:02x}", static_cast<unsigned char>(b)); };
  for (size_t i = 0; i < g.size();) {
    const char c = g[i];
    if (c == '*' && i + 1 < g.size() && g[i + 1] == '*' && (i == 0 || g[i - 1] == '/') &&
        (i + 2 == g.size() || g[i + 2] == '/')) {
      if (i + 2 == g.size()) {
        re += "(?s:.*)";  // a trailing `**`: everything below
        break;
      }
      re += "(?:[^/]*/)*";  // `**/`: zero or more whole segments
      i += 3;
      continue;
    }
    if (c == '*') {
      while (i < g.size() && g[i] == '*') ++i;  // `**` inside a segment is `*`
      re += "[^/]*";
      continue;
    }
    if (c == '?') {
      re += "[^/]";
      ++i;
      continue;
    }
    if (c == '[') {
      // The class as the set of bytes it matches: ranges, negation and escapes mean exactly
      // what ClassMatch says, '/' never included.
      size_t end = 0;  // where the class ends: every call below sets it alike
      auto in = [&](int b) { return ClassMatch(g, i, static_cast<char>(b), &end); };
      std::string set;  // as runs of bytes: a negated class stays a few ranges long
      for (int b = 0; b < 256; ++b) {
        if (!in(b)) continue;
        const int first = b;
        while (b + 1 < 256 && in(b + 1)) ++b;
        set += fmt::format("\\x{:02x}-\\x{:02x}", first, b);
      }
      re += set.empty() ? "[^\\x00-\\xff]" : "[" + set + "]";
      i = end;
      continue;
    }
    if (c == '\\' && i + 1 < g.size()) ++i;
    byte(g[i]);
    ++i;
  }
  return re;
}

// The compiled glob, or why it cannot be used.
std::shared_ptr<const re2::RE2> CompileGlob(std::string_view glob, std::string* problem) {
  *problem = GlobProblem(glob);
  if (!problem->empty()) return nullptr;
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(re2::RE2::Options::EncodingLatin1);
  auto re = std::make_shared<const re2::RE2>(GlobPattern(glob), options);
  if (!re->ok()) {
    *problem = "is too long or complex to match (" + re->error() + ")";
    return nullptr;
  }
  return re;
}

Status CompileRegex(const SpecErrors& err, std::string_view path, std::string_view pattern,
                    std::shared_ptr<const re2::RE2>* out) {
  if (pattern.empty()) return err.Fail(path, "\"\"", "must be a non-empty RE2 regex");
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re =
      std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    return InvalidArgument(fmt::format(
        "{}: {}: {} is not a valid regex{}: {}", err.file, path, QuoteForMessage(pattern),
        err.rule.empty() ? "" : " (rule " + err.rule + ")", re->error()));
  }
  *out = std::move(re);
  return Status::Ok();
}

Status ParseSpec(simdjson::dom::element e, std::string_view file, const std::string& path,
                 CheckSpec* spec) {
  SpecErrors err{file, ""};
  simdjson::dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return err.Fail(path, Show(e), "must be an object {\"rule\": ..., \"glob\": ..., ...}");
  }
  // The rule id first, so every later error can name it.
  simdjson::dom::element rule_el;
  std::string_view rule;
  if (o["rule"].get(rule_el) != simdjson::SUCCESS) {
    return err.Fail(path + ".rule", "(missing)", "is required: the id of the rule it checks");
  }
  if (rule_el.get_string().get(rule) != simdjson::SUCCESS || rule.empty()) {
    return err.Fail(path + ".rule", Show(rule_el), "must be a non-empty string (a rule id)");
  }
  spec->rule = std::string(rule);
  err.rule = spec->rule;
  spec->origin = fmt::format("{} {}", file, path);

  int kinds = 0;
  for (auto field : o) {
    const std::string key(field.key);
    const std::string fpath = path + "." + key;
    if (key == "rule") continue;
    if (key == "command") {
      simdjson::dom::array argv;
      if (field.value.get_array().get(argv) != simdjson::SUCCESS || argv.size() == 0) {
        return err.Fail(fpath, Show(field.value),
                        "must be a non-empty array of strings (the program and its arguments)");
      }
      size_t i = 0;
      for (simdjson::dom::element a : argv) {
        std::string_view s;
        if (a.get_string().get(s) != simdjson::SUCCESS || (i == 0 && s.empty())) {
          return err.Fail(fmt::format("{}[{}]", fpath, i), Show(a),
                          i == 0 ? "must be a non-empty string (the program)" : "must be a string");
        }
        spec->command.emplace_back(s);
        ++i;
      }
      ++kinds;
      continue;
    }
    std::string_view value;
    if (field.value.get_string().get(value) != simdjson::SUCCESS) {
      if (key != "glob" && key != "when" && key != "require" && key != "forbid" &&
          key != "message" && key != "fix") {
        return InvalidArgument(
            fmt::format("{}: {}: unknown field; allowed fields are rule, glob, when, require, "
                        "forbid, command, message, fix{}",
                        file, fpath, err.rule.empty() ? "" : " (rule " + err.rule + ")"));
      }
      return err.Fail(fpath, Show(field.value), "must be a string");
    }
    if (key == "glob") {
      std::string problem = "must be a non-empty glob";
      if (!value.empty()) spec->glob_re = CompileGlob(value, &problem);
      if (!spec->glob_re) return err.Fail(fpath, QuoteForMessage(value), problem);
      spec->glob = std::string(value);
    } else if (key == "when") {
      spec->when = std::string(value);
      KZ_RETURN_IF_ERROR(CompileRegex(err, fpath, value, &spec->when_re));
    } else if (key == "require") {
      spec->require = std::string(value);
      KZ_RETURN_IF_ERROR(CompileRegex(err, fpath, value, &spec->require_re));
      ++kinds;
    } else if (key == "forbid") {
      spec->forbid = std::string(value);
      KZ_RETURN_IF_ERROR(CompileRegex(err, fpath, value, &spec->forbid_re));
      ++kinds;
    } else if (key == "message") {
      spec->message = std::string(value);
    } else if (key == "fix") {
      spec->fix = std::string(value);
    } else {
      return InvalidArgument(
          fmt::format("{}: {}: unknown field; allowed fields are rule, glob, when, require, "
                      "forbid, command, message, fix (rule {})",
                      file, fpath, err.rule));
    }
  }
  if (kinds != 1) {
    return InvalidArgument(fmt::format(
        "{}: {}: has {} of require, forbid, command; a check needs exactly one (rule {})", file,
        path, kinds == 0 ? "none" : "more than one", err.rule));
  }
  return Status::Ok();
}

// --- files --------------------------------------------------------------------------------------

bool SkippedDirectory(std::string_view name) {
  static constexpr std::string_view kSkipped[] = {
      ".git", ".hg",         ".svn",   "node_modules", "vendor",        ".venv",
      "venv", "__pycache__", ".tox",   ".mypy_cache",  ".pytest_cache", "build",
      "dist", "out",         "target", ".kaizen"};
  for (std::string_view s : kSkipped) {
    if (name == s) return true;
  }
  return name.starts_with("build-") || name.starts_with("cmake-build-");
}

namespace fs = std::filesystem;

// Reads a regular file for checking, or says why it is skipped.
bool ReadCheckable(const fs::path& path, std::string* bytes, std::string* why) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) {
    *why = "cannot read: " + ec.message();
    return false;
  }
  if (size > kMaxCheckedFileBytes) {
    *why = fmt::format("over 1 MiB ({} bytes)", size);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot open";
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    *why = "cannot read";
    return false;
  }
  constexpr size_t kSniff = 8192;
  if (std::string_view(*bytes).substr(0, kSniff).find('\0') != std::string_view::npos) {
    *why = "binary";
    return false;
  }
  return true;
}

std::string JoinPath(std::string_view dir, std::string_view rel) {
  if (dir == ".") return std::string(rel);
  std::string out(dir);
  if (!out.ends_with('/')) out += '/';
  out += rel;
  return out;
}

void Walk(const std::string& root, const std::string& rel, std::vector<CheckedFile>* files,
          std::vector<SkippedFile>* skipped) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  const std::string dir = rel.empty() ? root : JoinPath(root, rel);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(*it);
  }
  if (ec) {
    skipped->push_back({dir, "cannot list: " + ec.message()});
    return;
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  for (const fs::directory_entry& e : entries) {
    const std::string name = e.path().filename().string();
    const std::string child = rel.empty() ? name : rel + "/" + name;
    const fs::file_status st = e.symlink_status(ec);
    if (ec || fs::is_symlink(st)) continue;  // never followed: no cycles, no escaping the tree
    if (fs::is_directory(st)) {
      if (!SkippedDirectory(name)) Walk(root, child, files, skipped);
      continue;
    }
    if (!fs::is_regular_file(st)) continue;
    CheckedFile f{JoinPath(root, child), child, {}};
    std::string why;
    if (ReadCheckable(e.path(), &f.bytes, &why)) {
      files->push_back(std::move(f));
    } else {
      skipped->push_back({f.path, why});
    }
  }
}

bool Selected(const CheckSpec& spec, const CheckedFile& f) {
  if (spec.glob_re && !re2::RE2::FullMatch(f.relative, *spec.glob_re)) return false;
  return !spec.when_re || re2::RE2::PartialMatch(f.bytes, *spec.when_re);
}

// 1-based line of a byte offset.
int64_t LineOf(std::string_view text, size_t offset) {
  return 1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(offset), '\n');
}

std::string CommandLine(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    out += a;
  }
  return out;
}

}  // namespace

Status ParseChecksJson(std::string_view json, std::string_view file, std::vector<CheckSpec>* specs,
                       learn::SelfCheckConfig* config) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::padded_string padded(json);
  if (auto e = parser.parse(padded).get(doc); e != simdjson::SUCCESS) {
    return InvalidArgument(
        fmt::format("{}: not valid JSON ({})", file, simdjson::error_message(e)));
  }
  simdjson::dom::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) {
    return InvalidArgument(
        fmt::format("{}: {} must be an object {{\"checks\": [...]}}", file, Show(doc)));
  }
  std::vector<CheckSpec> parsed;
  learn::SelfCheckConfig settings = *config;  // applied only when the whole file is accepted
  for (auto field : root) {
    if (field.key == "checks") {
      simdjson::dom::array checks;
      if (field.value.get_array().get(checks) != simdjson::SUCCESS) {
        return InvalidArgument(
            fmt::format("{}: checks: {} must be an array of checks", file, Show(field.value)));
      }
      size_t i = 0;
      for (simdjson::dom::element e : checks) {
        CheckSpec spec;
        KZ_RETURN_IF_ERROR(ParseSpec(e, file, fmt::format("checks[{}]", i++), &spec));
        parsed.push_back(std::move(spec));
      }
    } else if (field.key == "check") {
      if (!field.value.is_object()) {
        return InvalidArgument(fmt::format(
            "{}: check: {} must be an object of settings (kaizen config lists none; see "
            "learn/rules/self_check.h)",
            file, Show(field.value)));
      }
      Status s = learn::ApplyConfigJson("{\"check\":" + simdjson::minify(field.value) + "}",
                                        settings.Fields());
      if (!s.ok()) return InvalidArgument(fmt::format("{}: {}", file, s.message()));
    } else {
      return InvalidArgument(
          fmt::format("{}: {}: unknown field; allowed fields are checks, check", file, field.key));
    }
  }
  specs->insert(specs->end(), std::make_move_iterator(parsed.begin()),
                std::make_move_iterator(parsed.end()));
  *config = settings;
  return Status::Ok();
}

std::vector<CheckSpec> MergeChecks(const std::vector<CheckSpec>& base,
                                   const std::vector<CheckSpec>& over) {
  std::vector<CheckSpec> out;
  for (const CheckSpec& b : base) {
    const bool replaced =
        std::any_of(over.begin(), over.end(), [&](const CheckSpec& o) { return o.rule == b.rule; });
    if (!replaced) out.push_back(b);
  }
  out.insert(out.end(), over.begin(), over.end());
  return out;
}

bool GlobMatch(std::string_view glob, std::string_view path) {
  std::string problem;
  std::shared_ptr<const re2::RE2> re = CompileGlob(glob, &problem);
  return re && re2::RE2::FullMatch(re2::StringPiece(path.data(), path.size()), *re);
}

std::string GlobProblem(std::string_view glob) {
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      if (i + 1 == glob.size()) return "ends with a lone `\\`";
      ++i;
    } else if (glob[i] == '[') {
      size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
      if (j < glob.size() && glob[j] == ']') ++j;  // `[]]` holds a `]`
      while (j < glob.size() && glob[j] != ']') j += glob[j] == '\\' ? 2 : 1;
      if (j >= glob.size()) return "has a `[` with no closing `]`";
      i = j;
    }
  }
  return {};
}

Status CollectFiles(const std::vector<std::string>& paths, std::vector<CheckedFile>* files,
                    std::vector<SkippedFile>* skipped) {
  std::vector<CheckedFile> found;
  for (const std::string& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      return InvalidArgument(fmt::format("PATH {}: no such file or directory", QuoteForMessage(p)));
    }
    if (fs::is_directory(st)) {
      Walk(p, "", &found, skipped);
    } else if (fs::is_regular_file(st)) {
      CheckedFile f{p, fs::path(p).filename().string(), {}};
      std::string why;
      if (ReadCheckable(p, &f.bytes, &why)) {
        found.push_back(std::move(f));
      } else {
        skipped->push_back({p, why});
      }
    } else {
      return InvalidArgument(
          fmt::format("PATH {}: must be a regular file or a directory", QuoteForMessage(p)));
    }
  }
  std::set<std::string> seen;  // a file named twice (a file and its directory) is checked once
  for (CheckedFile& f : found) {
    if (seen.insert(f.path).second) files->push_back(std::move(f));
  }
  return Status::Ok();
}

CheckRun RunRegexCheck(const CheckSpec& spec, const std::vector<CheckedFile>& files) {
  CheckRun run;
  for (const CheckedFile& f : files) {
    if (!Selected(spec, f)) continue;
    run.applied = true;
    if (spec.require_re) {
      if (!re2::RE2::PartialMatch(f.bytes, *spec.require_re)) {
        run.findings.push_back({f.path, spec.message.empty()
                                            ? fmt::format("nothing matches /{}/", spec.require)
                                            : spec.message});
      }
      continue;
    }
    if (!spec.forbid_re) continue;
    // Each hit at the line of capture group 1 when the pattern has one (so a pattern can
    // anchor on context before the offending text), else of the match's start.
    const re2::RE2& re = *spec.forbid_re;
    const int groups = std::min(re.NumberOfCapturingGroups(), 1);
    re2::StringPiece text(f.bytes), match[2];
    size_t pos = 0, line_pos = 0;
    int64_t line = 1;
    size_t hits = 0;
    while (pos <= f.bytes.size() &&
           re.Match(text, pos, f.bytes.size(), re2::RE2::UNANCHORED, match, 1 + groups)) {
      if (hits++ == kMaxHitsPerFile) {
        run.cut = true;
        break;
      }
      const re2::StringPiece at = groups && match[1].data() ? match[1] : match[0];
      const size_t offset = static_cast<size_t>(at.data() - f.bytes.data());
      if (offset >= line_pos) {
        line += std::count(f.bytes.begin() + static_cast<ptrdiff_t>(line_pos),
                           f.bytes.begin() + static_cast<ptrdiff_t>(offset), '\n');
      } else {
        line = LineOf(f.bytes, offset);
      }
      line_pos = offset;
      std::string detail = spec.message;
      if (detail.empty()) {
        std::string_view hit(match[0].data(), match[0].size());
        if (hit.size() > 60) hit = hit.substr(0, 60);
        detail = fmt::format("matches /{}/: {}", spec.forbid, QuoteForMessage(hit));
      }
      run.findings.push_back({fmt::format("{}:{}", f.path, line), std::move(detail)});
      const size_t end = static_cast<size_t>(match[0].data() - f.bytes.data()) + match[0].size();
      pos = end > pos ? end : pos + 1;
    }
  }
  return run;
}

CheckRun RunCommandCheck(const CheckSpec& spec, const std::vector<CheckedFile>& files,
                         double timeout_seconds) {
  CheckRun run;
  std::vector<std::string> argv = spec.command;
  bool any = false;
  for (const CheckedFile& f : files) {
    if (!Selected(spec, f)) continue;
    argv.push_back(f.path);
    any = true;
  }
  // A command narrowed to some files runs only when there are such files; one with neither glob
  // nor `when` checks the whole work (`npm test`), so it always runs.
  if (!any && (!spec.glob.empty() || spec.when_re)) return run;
  run.applied = true;
  base::Subprocess program;
  program.argv = std::move(argv);
  program.timeout_seconds = timeout_seconds;
  program.output_cap = kCommandOutputCap;
  program.stderr_to = base::Subprocess::Stderr::kWithStdout;
  const Result<base::SubprocessResult> ran = base::RunSubprocess(program);
  const std::string shown = CommandLine(spec.command);
  std::string verdict;
  const base::SubprocessResult* r = ran.ok() ? &ran.value() : nullptr;
  if (!r) {
    verdict = fmt::format("`{}` could not run: {}", shown, ran.status().message());
  } else if (r->timed_out) {
    verdict = fmt::format("`{}` did not finish within {} s and was killed", shown, timeout_seconds);
  } else if (r->signal != 0) {
    verdict = fmt::format("`{}` was ended by signal {}", shown, r->signal);
  } else if (r->exit_code != 0) {
    verdict = fmt::format("`{}` exited with {}", shown, r->exit_code);
  } else {
    return run;
  }
  if (!spec.message.empty()) verdict = spec.message + " (" + verdict + ")";
  std::string output = r ? r->out : std::string();
  while (!output.empty() && std::isspace(static_cast<unsigned char>(output.back()))) {
    output.pop_back();
  }
  if (!output.empty()) verdict += ":\n" + output + (r->out_truncated ? "\n[output truncated]" : "");
  run.findings.push_back({"", std::move(verdict)});
  return run;
}

std::vector<learn::RuleCheck> RunChecks(const std::vector<CheckSpec>& specs,
                                        const std::vector<std::string>& rule_ids,
                                        const std::vector<CheckedFile>& files,
                                        double timeout_seconds) {
  std::vector<learn::RuleCheck> out;
  for (const std::string& id : rule_ids) {
    learn::RuleCheck check;
    check.rule_id = id;
    bool has_spec = false, cut = false;
    size_t more = 0;
    for (const CheckSpec& spec : specs) {
      if (spec.rule != id) continue;
      has_spec = true;
      CheckRun run = spec.command.empty() ? RunRegexCheck(spec, files)
                                          : RunCommandCheck(spec, files, timeout_seconds);
      check.applied = check.applied || run.applied;
      cut = cut || run.cut;
      if (!run.findings.empty() && check.fix.empty()) check.fix = spec.fix;
      for (learn::CheckFinding& f : run.findings) {
        if (check.findings.size() < kMaxFindingsPerRule) {
          check.findings.push_back(std::move(f));
        } else {
          ++more;
        }
      }
    }
    if (cut) {
      check.findings.push_back({"", "... and more"});
    } else if (more) {
      check.findings.push_back({"", fmt::format("... and {} more", more)});
    }
    if (has_spec) out.push_back(std::move(check));
  }
  return out;
}

}  // namespace kaizen::checks
