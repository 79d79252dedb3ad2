#include "sim/demo_project.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

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

Status Git(const std::string& dir, std::vector<std::string> args) {
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
  git.stderr_to = base::Subprocess::Stderr::kWithStdout;
  git.timeout_seconds = 60;
  Result<base::SubprocessResult> r = base::RunSubprocess(git);
  if (!r.ok()) return FailedPrecondition(fmt::format("git: {}", r.status().message()));
  if (!r->succeeded()) {
    return FailedPrecondition(fmt::format("git {} ended with {}: {}", args.front(),
                                          r->Outcome(git.timeout_seconds), r->out));
  }
  return Status::Ok();
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

}  // namespace

Result<size_t> WriteDemoProject(const std::string& relative_dir,
                                const std::vector<DemoWork>& work) {
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
    KZ_RETURN_IF_ERROR(Git(dir, {"add", "-A", "-f"}));
    KZ_RETURN_IF_ERROR(Git(dir, {"commit", "-q", "-m", "The project before the agent's work"}));
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
