#include "home/work_artifact.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "base/sibling.h"
#include "base/utf8.h"
#include "model/commit_name.h"

namespace kaizen::home {
namespace {

void Note(WorkArtifact* a, const std::string& why) {
  a->unavailable += (a->unavailable.empty() ? "" : "; ") + why;
}

void ReadFile(const std::filesystem::path& resolved, WorkArtifact* a) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(resolved, ec)) {
    Note(a, "no file " + resolved.string() + " under the serve root");
    return;
  }
  std::ifstream in(resolved, std::ios::binary);
  std::string text(kMaxShownFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxShownFileBytes) {
    text = std::string(base::Utf8Prefix(text, kMaxShownFileBytes));
    a->truncated = true;
  }
  if (!simdjson::validate_utf8(text.data(), text.size()) || text.find('\0') != std::string::npos) {
    Note(a, resolved.string() + " is not UTF-8 text: not shown");
    return;
  }
  a->file_path = resolved.string();
  a->file_text = std::move(text);
}

// The change from git: `commit` when given, else the version when it names a commit, else the
// working tree's for the newest version.
void ReadGitDiff(const std::string& at, const WorkVersion& work, WorkArtifact* a) {
  if (!work.commit.empty() || model::LooksLikeCommit(work.version)) {
    const std::string& rev = work.commit.empty() ? work.version : work.commit;
    Result<base::GitDiff> diff = base::RunGitDiff({at}, rev);
    if (diff.ok()) {
      a->diff = std::move(diff->text);
      a->diff_source = std::move(diff->source);
      return;
    }
    if (!work.commit.empty()) {  // named, so its absence is worth saying
      Note(a, "no diff of " + work.commit + ": " + diff.status().message());
      return;
    }
  }
  if (!work.newest) {
    Note(a,
         "no diff: this version recorded no change (no diff, no commit) and a later version "
         "followed, so the working tree is not its change");
    return;
  }
  Result<base::GitDiff> diff = base::RunGitDiff({at}, "");
  if (!diff.ok()) {
    Note(a,
         "no diff: this version recorded no change (no diff, no commit), and the working "
         "tree: " +
             diff.status().message());
    return;
  }
  a->diff = std::move(diff->text);
  a->diff_source = "working tree now (this version recorded no change)";
}

}  // namespace

WorkArtifact ReadWorkArtifact(const std::string& root, const WorkVersion& work) {
  namespace fs = std::filesystem;
  WorkArtifact a;
  std::error_code ec;
  const fs::path base =
      fs::weakly_canonical(root.empty() ? fs::current_path(ec) : fs::path(root), ec);
  std::optional<fs::path> resolved;
  if (work.path.empty()) {
    Note(&a, "the work product names no path: no file to show");
  } else {
    const fs::path p = fs::weakly_canonical(base / fs::path(work.path), ec);
    const fs::path inside = p.lexically_relative(base);
    if (ec || inside.empty() || *inside.begin() == "..") {
      Note(&a, "the path " + work.path + " is outside the serve root " + base.string() +
                   " (kaizen serve --root)");
      return a;  // nothing of it is read, not even its git history
    }
    resolved = p;
    ReadFile(p, &a);
  }
  if (!work.diff.empty()) {
    a.diff = work.diff;
    a.diff_source = "recorded with this version";
    return a;
  }
  // kaizen-git reads the repository (base/sibling.h: libgit2 stays out of kaizen's own start).
  ReadGitDiff(resolved ? resolved->string() : base.string(), work, &a);
  return a;
}

}  // namespace kaizen::home
