// For tests only: a scratch directory per test and a file's bytes.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace kaizen::base::test_files {

// Every byte of the file at `path` ("" when it cannot be read).
inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A new empty directory under the system's temporary directory, named `<prefix>-XXXXXX`; ""
// when it cannot be made. The caller removes it.
inline std::string MakeTempDir(std::string_view prefix) {
  std::string tmpl =
      (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
  return ::mkdtemp(tmpl.data()) ? tmpl : std::string();
}

}  // namespace kaizen::base::test_files
