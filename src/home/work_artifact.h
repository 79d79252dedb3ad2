// What the review modal shows of a work version (seed 000 §3.5's presentation formats): the file
// its `workProduct.path` names, read under the serve root, and the agent's change for that
// version: the diff recorded with it, else its commit's (or commit range's) from git.
#pragma once

#include <optional>
#include <string>

namespace kaizen::home {

inline constexpr size_t kMaxShownFileBytes = size_t{1} << 20;  // larger files are cut, marked

// The work version as recorded.
struct WorkVersion {
  std::string path;     // workProduct.path ("" when none)
  std::string version;  // workProduct.version: a commit when the work came from git or GitHub
  std::string commit;   // workProduct.commit: a commit or BASE..HEAD ("" when none)
  std::string diff;     // workProduct.diff ("" when none)
  bool newest = true;   // no later version of the artifact was recorded
};

struct WorkArtifact {
  std::optional<std::string> file_path;  // as resolved, when the file was read
  std::string file_text;
  bool truncated = false;
  std::optional<std::string> diff;  // a unified diff
  // "recorded with this version", "commit <sha7>: <subject>", "commits <a7>..<b7>", or "working
  // tree now (this version recorded no change)"
  std::string diff_source;
  std::string unavailable;  // why the file or the diff is missing ("" when both are there)
};

// `path` relative to `root` (or absolute): refused when it resolves outside `root` (symlinks
// followed), so a work event cannot make the server read arbitrary files. Binary (not UTF-8)
// files are not shown. The diff, in order: the one recorded with the version; its `commit`; its
// version when that names a commit of the repository; the working tree's uncommitted change, only
// for the newest version and said so. Never a later commit that touched the file. Never fails:
// what could not be read is said in `unavailable`.
WorkArtifact ReadWorkArtifact(const std::string& root, const WorkVersion& work);

}  // namespace kaizen::home
