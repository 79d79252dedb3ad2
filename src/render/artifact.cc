// Rendered files are derived state: rewriting one with the same bytes would only churn mtimes
// (and wake file watchers, editors and agents that reload on change), so unchanged files are left
// alone and the rest are replaced atomically.
#include "render/artifact.h"

#include <fmt/format.h>

#include <string_view>

#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::render {
namespace {

// A path must stay inside the home: relative, no empty, "." or ".." segment.
Status CheckRelativePath(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') {
    return InvalidArgument(
        fmt::format("rendered file path '{}' must be relative to the home and name a file", path));
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") {
      return InvalidArgument(fmt::format(
          "rendered file path '{}' must not contain empty, '.' or '..' segments", path));
    }
    start = end + 1;
  }
  return Status::Ok();
}

}  // namespace

Status WriteRenderedFiles(const std::string& home, const std::vector<RenderedFile>& files) {
  // Every path is checked before anything is written, so a bad one cannot leave half a render.
  for (const RenderedFile& file : files) KZ_RETURN_IF_ERROR(CheckRelativePath(file.path));
  store::FileSystem* fs = store::DefaultFileSystem();
  for (const RenderedFile& file : files) {
    const std::string path = store::PathIn(home, file.path);
    if (fs->Exists(path)) {
      Result<std::string> old = fs->ReadFrom(path, 0);
      if (old.ok() && *old == file.content) continue;
    }
    KZ_RETURN_IF_ERROR(fs->CreateDirs(store::DirName(path)));
    KZ_RETURN_IF_ERROR(fs->WriteFileAtomic(path, file.content, /*durable=*/true));
  }
  return Status::Ok();
}

}  // namespace kaizen::render
