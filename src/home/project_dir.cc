#include "home/project_dir.h"

#include <filesystem>
#include <system_error>

namespace kaizen::home {

std::string ProjectDirectory(const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.empty()) return {};
  std::error_code ec;
  fs::path start = fs::absolute(dir, ec);
  if (ec) return dir;
  start = start.lexically_normal();
  if (!start.has_filename() && start.has_parent_path()) start = start.parent_path();  // "a/b/"
  for (fs::path p = start;; p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return p.string();
    if (!p.has_parent_path() || p.parent_path() == p) break;
  }
  return start.string();
}

std::vector<HintsTarget> HintsTargets(const std::string& dir,
                                      const std::vector<std::string>& files) {
  std::vector<HintsTarget> out;
  for (const std::string& f : files) {
    const std::filesystem::path path = std::filesystem::path(dir) / f;
    out.push_back({path.string(), ProjectDirectory(path.parent_path().string())});
  }
  return out;
}

}  // namespace kaizen::home
