// What `kaizen render` produces: files under the home, each a pure function of (log, config, now).
#pragma once

#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::render {

struct RenderedFile {
  std::string path;     // relative to the home, '/'-separated: "memory/quality-standards.md"
  std::string content;  // the exact bytes
};

// Writes each file atomically (temp file in the same directory, fsync, rename, fsync of the
// directory), creating directories as needed; a file whose bytes are unchanged is not rewritten.
// REQUIRES: paths are relative and contain no "..".
Status WriteRenderedFiles(const std::string& home, const std::vector<RenderedFile>& files);

}  // namespace kaizen::render
