// `kaizen render` and `kaizen hints`: the learned state written out as files an agent reads
// (seed 000 §5.1, §8.2-8.4; seed 002's prompt blocks). Both are pure functions of (log, config,
// now) written atomically, so running them twice changes nothing.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/hints_section.h"
#include "home/learned_state.h"
#include "home/project_dir.h"
#include "home/serve_client.h"
#include "model/timestamp.h"
#include "render/artifact.h"
#include "render/hints.h"
#include "render/prompt_files.h"
#include "render/render_all.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

struct RenderReport {
  std::vector<std::string> written, unchanged, removed;
};

// Owned prompt files (render/prompt_files.h) this render no longer produces: their rule was
// retired, their type has no active rule left, their bead's errors were resolved.
Status RemoveStale(const Common& c, const std::set<std::string>& produced, RenderReport* report) {
  store::FileSystem* fs = store::DefaultFileSystem();
  std::vector<std::string> candidates = {
      std::string(render::kChecklistPath), std::string(render::kAntiPatternsPath),
      std::string(render::kProvenPatternsPath), "prompts/global-rules.md"};
  for (const std::string& dir : render::OwnedPromptDirs()) {
    KZ_ASSIGN_OR_RETURN(std::vector<std::string> names, fs->ListFiles(store::PathIn(c.home, dir)));
    for (const std::string& name : names) candidates.push_back(dir + "/" + name);
  }
  std::sort(candidates.begin(), candidates.end());
  for (const std::string& rel : candidates) {
    if (!render::IsOwnedPromptFile(rel) || produced.count(rel) > 0) continue;
    const std::string path = store::PathIn(c.home, rel);
    if (!fs->Exists(path)) continue;
    KZ_RETURN_IF_ERROR(fs->Remove(path));
    report->removed.push_back(rel);
  }
  return Status::Ok();
}

void PrintReport(const Common& c, const RenderReport& r, int64_t now_ms) {
  if (c.json) {
    rapidjson::StringBuffer buffer;
    base::JsonWriter w(buffer);
    w.StartObject();
    base::Key(w, "now");
    base::Str(w, model::FormatUtc(now_ms));
    for (const auto& [key, list] :
         {std::pair{"written", &r.written}, std::pair{"unchanged", &r.unchanged},
          std::pair{"removed", &r.removed}}) {
      base::Key(w, key);
      w.StartArray();
      for (const std::string& path : *list) base::Str(w, path);
      w.EndArray();
    }
    w.EndObject();
    fmt::print("{}\n", buffer.GetString());
    return;
  }
  for (const std::string& p : r.written) fmt::print("wrote {}\n", p);
  for (const std::string& p : r.unchanged) fmt::print("unchanged {}\n", p);
  for (const std::string& p : r.removed) fmt::print("removed {}\n", p);
  fmt::print("render: {} written, {} unchanged, {} removed (as of {})\n", r.written.size(),
             r.unchanged.size(), r.removed.size(), model::FormatUtc(now_ms));
}

}  // namespace

int RenderCommand(const Common& c) {
  home::LearnedState loaded;
  if (Status s = home::LoadLearnedState(c, &loaded); !s.ok()) return home::FailVerb("render", s);
  home::WarnUnreadable(loaded.scan);
  const std::vector<render::RenderedFile> files = render::RenderAll(*loaded.learner, loaded.now_ms);

  RenderReport report;
  std::set<std::string> produced;
  store::FileSystem* fs = store::DefaultFileSystem();
  for (const render::RenderedFile& f : files) {
    produced.insert(f.path);
    const std::string path = store::PathIn(c.home, f.path);
    Result<std::string> old = fs->Exists(path) ? fs->ReadFrom(path, 0) : Result<std::string>("");
    const bool same = fs->Exists(path) && old.ok() && *old == f.content;
    (same ? report.unchanged : report.written).push_back(f.path);
  }
  if (Status s = render::WriteRenderedFiles(c.home, files); !s.ok())
    return home::FailVerb("render", s);
  if (Status s = RemoveStale(c, produced, &report); !s.ok()) return home::FailVerb("render", s);
  PrintReport(c, report, loaded.now_ms);
  return kExitOk;
}

int HintsCommand(const Common& c, const std::string& file, const std::string& project_option) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string dir = store::DirName(file);
  if (!fs->Exists(dir)) {
    fmt::print(stderr, "kaizen hints: FILE '{}': directory '{}' does not exist\n", file, dir);
    return kExitUsage;
  }
  // The rules of the project the file is in, unless --project names one.
  const std::string project = project_option.empty() ? home::ProjectDirectory(dir) : project_option;
  // The home's running server renders the section from its live learner (home/serve_client.h).
  Result<std::string> section = std::string();
  if (std::optional<std::string> served = home::ReadFromServer(
          c.home, "hints", home::NowQuery(c.now) + "&project=" + home::UrlEncode(project))) {
    section = std::move(*served);
  } else {
    section = home::LearnedHintsSection(c, project);
    if (!section.ok()) return home::FailVerb("hints", section.status());
  }
  Result<bool> written = home::WriteHintsSection(*section, file);
  if (!written.ok()) return home::FailVerb("hints", written.status());
  fmt::print("{} {}\n", *written ? "wrote" : "unchanged", file);
  return kExitOk;
}

Verb AddRenderVerb(CLI::App& app, Common& c) {
  CLI::App* sub = app.add_subcommand(
      "render",
      "write the prompt artifacts (prompts/, rubrics, checklist, pattern blocks) into the home");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c] { return RenderCommand(c); }};
}

Verb AddHintsVerb(CLI::App& app, Common& c) {
  CLI::App* sub = app.add_subcommand(
      "hints",
      "write the learned section below the DO NOT EDIT BELOW THIS LINE marker of a hints file");
  auto file = std::make_shared<std::string>();
  sub->add_option("FILE", *file,
                  "the hints file (.goosehints, AGENTS.md, CLAUDE.md); created if missing")
      ->required();
  auto project = std::make_shared<std::string>();
  sub->add_option("--project", *project,
                  "the project whose rules to write (a name or a directory); default: the "
                  "repository FILE is in");
  AddCommonOptions(sub, c, /*with_json=*/false, /*with_now=*/true);
  return {sub, [&c, file, project] { return HintsCommand(c, *file, *project); }};
}

}  // namespace kaizen::cli
