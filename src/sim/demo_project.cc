#include "sim/demo_project.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "base/subprocess.h"

namespace kaizen::sim {
namespace {

namespace fs = std::filesystem;

// "pull-requests" -> "PullRequests".
std::string Camel(std::string_view word) {
  std::string out;
  bool up = true;
  for (char ch : word) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) {
      up = true;
      continue;
    }
    out.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch);
    up = false;
  }
  return out.empty() ? "Items" : out;
}

struct Versions {
  std::string before, after;
};

// The file as it was and as the agent left it, by what kind of file the path names.
std::optional<Versions> Contents(const DemoWork& w) {
  const fs::path path(w.path);
  const std::string stem = path.stem().string();
  const std::string ext = path.extension().string();
  const std::string name = w.path;
  if (name.ends_with(".test.ts")) {
    const std::string domain = fs::path(stem).stem().string();
    const std::string fn = "list" + Camel(domain);
    const std::string head = fmt::format(
        "import {{ describe, expect, it }} from \"vitest\";\n"
        "import {{ {fn} }} from \"../src/tools/{d}\";\n\n"
        "describe(\"{fn}\", () => {{\n"
        "  it(\"returns the first page\", async () => {{\n"
        "    const page = await {fn}({{ limit: 10 }});\n"
        "    expect(page.items.length).toBeLessThanOrEqual(10);\n"
        "  }});\n",
        fmt::arg("fn", fn), fmt::arg("d", domain));
    return Versions{
        head + "});\n",
        head + fmt::format("\n  // {}\n"
                           "  it(\"follows the cursor to the next page\", async () => {{\n"
                           "    const first = await {fn}({{ limit: 2 }});\n"
                           "    const second = await {fn}({{ limit: 2, cursor: first.next }});\n"
                           "    expect(second.items[0]).not.toEqual(first.items[0]);\n"
                           "  }});\n\n"
                           "  it(\"rejects a limit above 100\", async () => {{\n"
                           "    await expect({fn}({{ limit: 500 }})).rejects.toThrow();\n"
                           "  }});\n"
                           "}});\n",
                           w.summary, fmt::arg("fn", fn))};
  }
  if (ext == ".ts" && stem.ends_with("-client")) {
    const std::string domain = stem.substr(0, stem.size() - 7);
    const std::string cls = Camel(domain) + "Client";
    const std::string head = fmt::format(
        "// The HTTP client of the {d} API.\n"
        "export class {c} {{\n"
        "  constructor(private readonly baseUrl: string, private readonly token: string) {{}}\n\n",
        fmt::arg("d", domain), fmt::arg("c", cls));
    return Versions{head +
                        "  async get(path: string): Promise<unknown> {\n"
                        "    const response = await fetch(this.baseUrl + path, {\n"
                        "      headers: { Authorization: `Bearer ${this.token}` },\n"
                        "    });\n"
                        "    return response.json();\n"
                        "  }\n"
                        "}\n",
                    head + fmt::format("  // {}\n", w.summary) +
                        "  async get(path: string, attempts = 3): Promise<unknown> {\n"
                        "    for (let attempt = 1; ; attempt++) {\n"
                        "      const response = await fetch(this.baseUrl + path, {\n"
                        "        headers: { Authorization: `Bearer ${this.token}` },\n"
                        "      });\n"
                        "      if (response.ok) return response.json();\n"
                        "      if (response.status < 500 || attempt === attempts) {\n"
                        "        throw new Error(`GET ${path} failed: ${response.status}`);\n"
                        "      }\n"
                        "      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));\n"
                        "    }\n"
                        "  }\n"
                        "}\n"};
  }
  if (ext == ".ts") {
    const std::string fn = "list" + Camel(stem);
    const std::string head = fmt::format(
        "import {{ z }} from \"zod\";\n"
        "import {{ client }} from \"../client\";\n\n"
        "export const {fn}Input = z.object({{\n"
        "  limit: z.number().int().positive().max(100).optional(),\n",
        fmt::arg("fn", fn));
    return Versions{
        head + fmt::format("}});\n\n"
                           "export async function {fn}(input: z.infer<typeof {fn}Input>) {{\n"
                           "  const response = await client.get(\"/{d}\", {{ params: input }});\n"
                           "  return response.data;\n"
                           "}}\n",
                           fmt::arg("fn", fn), fmt::arg("d", stem)),
        head + fmt::format("  cursor: z.string().optional(),\n"
                           "}});\n\n"
                           "// {s}\n"
                           "export async function {fn}(input: z.infer<typeof {fn}Input>) {{\n"
                           "  const response = await client.get(\"/{d}\", {{ params: input }});\n"
                           "  if (response.status >= 400) {{\n"
                           "    throw new Error(`listing {d} failed: ${{response.status}}`);\n"
                           "  }}\n"
                           "  return {{ items: response.data.items, next: "
                           "response.data.next_cursor ?? null }};\n"
                           "}}\n",
                           fmt::arg("fn", fn), fmt::arg("d", stem), fmt::arg("s", w.summary))};
  }
  if (ext == ".md") {
    const std::string server = path.parent_path().filename().string();
    const std::string head = fmt::format(
        "# {s}\n\n"
        "An MCP server for {s}.\n\n"
        "## Install\n\n"
        "    npm install\n"
        "    npm run build\n",
        fmt::arg("s", server));
    return Versions{head, head + fmt::format("\n## Configuration\n\n"
                                             "Set `{}_TOKEN` to an API token with read access.\n\n"
                                             "## Tools\n\n"
                                             "{}.\n",
                                             Camel(server), w.summary)};
  }
  if (ext == ".yml") {
    const std::string head =
        "name: deploy\n"
        "on:\n"
        "  push:\n"
        "    branches: [main]\n"
        "jobs:\n"
        "  deploy:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - run: npm ci\n";
    return Versions{head + "      - run: npm run deploy\n",
                    head + fmt::format("      # {}\n", w.summary) +
                        "      - run: npm test\n"
                        "      - run: npm run deploy\n"
                        "        env:\n"
                        "          DEPLOY_TOKEN: ${{ secrets.DEPLOY_TOKEN }}\n"};
  }
  return std::nullopt;  // not text: a design file has no diff to read
}

// Runs git in `dir` and returns what it printed. `env` adds variables (a commit's author, dates).
Result<std::string> GitOutput(const std::string& dir, std::vector<std::string> args,
                              const std::vector<std::string>& env = {}) {
  base::Subprocess git;
  git.argv = {"git", "-C", dir};
  // The user's own git settings stay out of it (signing, hooks, line endings, excludes, a default
  // branch name), and so do a GIT_DIR or index the caller's environment names (a git hook's).
  for (const char* setting :
       {"user.name=kaizen demo", "user.email=demo@kaizen.invalid", "commit.gpgsign=false",
        "core.hooksPath=/dev/null", "init.defaultBranch=main", "core.autocrlf=false",
        "core.safecrlf=false", "core.excludesFile=/dev/null"}) {
    git.argv.insert(git.argv.end(), {"-c", setting});
  }
  git.argv.insert(git.argv.end(), args.begin(), args.end());
  git.env = {"GIT_DIR=" + dir + "/.git",
             "GIT_WORK_TREE=" + dir,
             "GIT_INDEX_FILE=" + dir + "/.git/index",
             "GIT_OBJECT_DIRECTORY=" + dir + "/.git/objects",
             "GIT_CONFIG_GLOBAL=/dev/null",
             "GIT_CONFIG_NOSYSTEM=1",
             "GIT_CEILING_DIRECTORIES=" + fs::path(dir).parent_path().string()};
  git.env.insert(git.env.end(), env.begin(), env.end());
  git.stderr_to = base::Subprocess::Stderr::kWithStdout;
  git.timeout_seconds = 60;
  Result<base::SubprocessResult> r = base::RunSubprocess(git);
  if (!r.ok()) return FailedPrecondition(fmt::format("git: {}", r.status().message()));
  if (!r->succeeded()) {
    return FailedPrecondition(fmt::format("git {} ended with {}: {}", args.front(),
                                          r->Outcome(git.timeout_seconds), r->out));
  }
  return r->out;
}

Status Git(const std::string& dir, std::vector<std::string> args,
           const std::vector<std::string>& env = {}) {
  return GitOutput(dir, std::move(args), env).status();
}

// A commit by `who` ("Name <email>") at `at_ms`, for the author and the committer alike.
std::vector<std::string> CommitEnv(std::string_view name, std::string_view email, int64_t at_ms) {
  const std::string date = fmt::format("@{} +0000", at_ms / 1000);
  std::vector<std::string> env;
  for (std::string_view role : {"AUTHOR", "COMMITTER"}) {
    env.push_back(fmt::format("GIT_{}_NAME={}", role, name));
    env.push_back(fmt::format("GIT_{}_EMAIL={}", role, email));
    env.push_back(fmt::format("GIT_{}_DATE={}", role, date));
  }
  return env;
}

Status Write(const fs::path& file, const std::string& text) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return IoError(fmt::format("cannot write {}", file.string()));
  return Status::Ok();
}

// The agent's past in the project, for `kaizen git scan` to read: the automatic signals of seed
// 001 need commits of the agent's and a person's after them. The agent adds one API module at a
// time; two modules later the person fixes the error handling of one in three (a human edit after
// an agent edit, and a correction of the lines it rewrote), and reverts one module outright.
struct PastCommit {
  std::string path, text, message;
  bool agent = true;
  std::string revert_of;  // a path whose agent commit this one reverts
};

constexpr std::string_view kModules[] = {
    "invoices", "customers", "webhooks", "refunds",  "payouts",   "disputes", "coupons",
    "prices",   "products",  "orders",   "shipping", "inventory", "accounts", "balances",
    "events",   "files",     "reports",  "sessions", "tokens",    "transfers"};

std::string Module(std::string_view name, bool fixed) {
  const std::string fn = "get" + Camel(name);
  std::string text = fmt::format(
      "import {{ client }} from \"../client\";\n\n"
      "// One {n} record by its id.\n"
      "export async function {fn}(id: string) {{\n"
      "  const response = await client.get(`/{n}/${{id}}`);\n",
      fmt::arg("n", name), fmt::arg("fn", fn));
  if (fixed) {
    text += fmt::format(
        "  if (response.status >= 400) {{\n"
        "    throw new Error(`{fn} ${{id}} failed: ${{response.status}}`);\n"
        "  }}\n"
        "  return response.data;\n",
        fmt::arg("fn", fn));
  } else {
    text += "  try {\n    return response.data;\n  } catch {\n    return null;\n  }\n";
  }
  return text + "}\n";
}

std::vector<PastCommit> PastCommits() {
  std::vector<PastCommit> out;
  for (size_t i = 0; i < std::size(kModules); ++i) {
    const std::string name(kModules[i]);
    const std::string path = "src/api/" + name + ".ts";
    out.push_back({path, Module(name, false), "Add the " + name + " API module"});
    // The person's answer, two modules later: the swallowed error becomes a thrown one (every
    // third module), or the module goes (once).
    if (i >= 2 && i % 3 == 2) {
      const std::string earlier(kModules[i - 2]);
      out.push_back({"src/api/" + earlier + ".ts", Module(earlier, true),
                     "Throw on a failed " + earlier + " request instead of returning null", false});
    }
    if (i == 7) out.push_back({path, "", "", false, path});
  }
  return out;
}

constexpr int64_t kDayMs = int64_t{24} * 3600 * 1000;
// A day and a half between past commits, but for the last kRecentCommits: those fall in the
// current calendar month (the dashboard's "now" for automatic signals is the month so far), however
// little of it has gone by.
constexpr int64_t kPastCommitEveryMs = int64_t{36} * 3600 * 1000;
constexpr size_t kRecentCommits = 14;

// When the past commits are made, oldest first, the last one before `now_ms`.
std::vector<int64_t> PastCommitTimes(size_t n, int64_t now_ms) {
  const std::time_t now_s = now_ms / 1000;
  std::tm month{};
  gmtime_r(&now_s, &month);
  month.tm_mday = 1;
  month.tm_hour = month.tm_min = month.tm_sec = 0;
  const int64_t month_ms = static_cast<int64_t>(timegm(&month)) * 1000;
  const size_t recent = std::min(n, kRecentCommits);
  std::vector<int64_t> at(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + recent >= n) {
      const auto k = static_cast<int64_t>(i + recent - n + 1);
      at[i] = month_ms + k * (now_ms - month_ms) / static_cast<int64_t>(recent + 1);
    } else {
      at[i] = month_ms - static_cast<int64_t>(n - recent - i) * kPastCommitEveryMs;
    }
  }
  return at;
}

Status WritePastCommits(const std::string& dir, const std::vector<PastCommit>& commits,
                        const std::vector<int64_t>& at) {
  std::map<std::string, std::string> sha_of;  // an agent commit's path -> its sha
  for (size_t i = 0; i < commits.size(); ++i) {
    const PastCommit& c = commits[i];
    const std::vector<std::string> env =
        c.agent ? CommitEnv("Claude", "noreply@anthropic.com", at[i])
                : CommitEnv("Dana Reviewer", "dana@example.com", at[i]);
    if (!c.revert_of.empty()) {
      KZ_RETURN_IF_ERROR(Git(dir, {"revert", "--no-edit", sha_of[c.revert_of]}, env));
      continue;
    }
    KZ_RETURN_IF_ERROR(Write(fs::path(dir) / c.path, c.text));
    KZ_RETURN_IF_ERROR(Git(dir, {"add", "-A", "-f"}, env));
    KZ_RETURN_IF_ERROR(Git(dir, {"commit", "-q", "-m", c.message}, env));
    if (c.agent) {
      KZ_ASSIGN_OR_RETURN(std::string sha, GitOutput(dir, {"rev-parse", "HEAD"}));
      while (!sha.empty() && std::isspace(static_cast<unsigned char>(sha.back()))) sha.pop_back();
      sha_of[c.path] = std::move(sha);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<size_t> WriteDemoProject(const std::string& relative_dir, const std::vector<DemoWork>& work,
                                int64_t now_ms) {
  std::error_code ec;
  // Absolute: git runs in it (-C) and is told where its repository is (GIT_DIR).
  const std::string dir = fs::absolute(relative_dir, ec).lexically_normal().string();
  if (fs::exists(dir, ec)) return FailedPrecondition(fmt::format("{} exists already", dir));
  std::vector<std::pair<std::string, Versions>> files;
  std::set<std::string> seen;
  for (const DemoWork& w : work) {
    const fs::path p(w.path);
    if (w.path.empty() || p.is_absolute() || w.path.find("..") != std::string::npos ||
        *p.begin() == ".git" || !seen.insert(w.path).second) {
      continue;
    }
    if (std::optional<Versions> v = Contents(w)) files.emplace_back(w.path, std::move(*v));
  }
  if (files.empty()) return size_t{0};
  fs::create_directories(dir, ec);
  if (ec) return IoError(fmt::format("cannot create {}: {}", dir, ec.message()));
  auto fill = [&]() -> Status {
    KZ_RETURN_IF_ERROR(Git(dir, {"init", "-q"}));
    for (const auto& [path, v] : files) KZ_RETURN_IF_ERROR(Write(fs::path(dir) / path, v.before));
    // The project's first commit is a day before the agent's first.
    const std::vector<PastCommit> past = PastCommits();
    const std::vector<int64_t> at = PastCommitTimes(past.size(), now_ms);
    const std::vector<std::string> env =
        CommitEnv("Dana Reviewer", "dana@example.com", at.front() - kDayMs);
    KZ_RETURN_IF_ERROR(Git(dir, {"add", "-A", "-f"}, env));
    KZ_RETURN_IF_ERROR(
        Git(dir, {"commit", "-q", "-m", "The project before the agent's work"}, env));
    KZ_RETURN_IF_ERROR(WritePastCommits(dir, past, at));
    for (const auto& [path, v] : files) KZ_RETURN_IF_ERROR(Write(fs::path(dir) / path, v.after));
    return Status::Ok();
  };
  if (Status s = fill(); !s.ok()) {
    fs::remove_all(dir, ec);  // a half-made project would be skipped as "exists already"
    return s;
  }
  return files.size();
}

}  // namespace kaizen::sim
