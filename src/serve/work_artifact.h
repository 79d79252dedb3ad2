// What the review modal shows of a work product (seed 000 §3.5's presentation formats): the file
// its `workProduct.path` names, read under the serve root, and its diff from git.
#pragma once

#include <optional>
#include <string>

namespace kaizen::serve {

inline constexpr size_t kMaxShownFileBytes = size_t{1} << 20;  // larger files are cut, marked

struct WorkArtifact {
  std::optional<std::string> file_path;  // as resolved, when the file was read
  std::string file_text;
  bool truncated = false;
  std::optional<std::string> diff;  // a unified diff
  std::string diff_source;          // "working tree" | "commit <sha7>: <subject>"
  std::string unavailable;          // why the file or the diff is missing ("" when both are there)
};

// `path` relative to `root` (or absolute): refused when it resolves outside `root` (symlinks
// followed), so a work event cannot make the server read arbitrary files. Binary (not UTF-8)
// files are not shown. Never fails: what could not be read is said in `unavailable`.
WorkArtifact ReadWorkArtifact(const std::string& root, const std::string& path);

}  // namespace kaizen::serve
