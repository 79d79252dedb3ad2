#include "serve/work_artifact.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>

#include "model/utf8.h"
#include "signals/git_file_diff.h"

namespace kaizen::serve {
namespace {

void Note(WorkArtifact* a, const std::string& why) {
  a->unavailable += (a->unavailable.empty() ? "" : "; ") + why;
}

}  // namespace

WorkArtifact ReadWorkArtifact(const std::string& root, const std::string& path) {
  namespace fs = std::filesystem;
  WorkArtifact a;
  if (path.empty()) {
    Note(&a, "the work product names no path: only its summary can be shown");
    return a;
  }
  std::error_code ec;
  const fs::path base =
      fs::weakly_canonical(root.empty() ? fs::current_path(ec) : fs::path(root), ec);
  const fs::path resolved = fs::weakly_canonical(base / fs::path(path), ec);
  const fs::path inside = resolved.lexically_relative(base);
  if (ec || inside.empty() || *inside.begin() == "..") {
    Note(&a, "the path " + path + " is outside the serve root " + base.string() +
                 " (kaizen serve --root)");
    return a;
  }
  if (!fs::is_regular_file(resolved, ec)) {
    Note(&a, "no file " + resolved.string() + " under the serve root");
  } else {
    std::ifstream in(resolved, std::ios::binary);
    std::string text(kMaxShownFileBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxShownFileBytes) {
      text = std::string(model::Utf8Prefix(text, kMaxShownFileBytes));
      a.truncated = true;
    }
    if (!simdjson::validate_utf8(text.data(), text.size()) ||
        text.find('\0') != std::string::npos) {
      Note(&a, resolved.string() + " is not UTF-8 text: not shown");
    } else {
      a.file_path = resolved.string();
      a.file_text = std::move(text);
    }
  }
  Result<signals::FileDiff> diff = signals::DiffOfFile(resolved.string());
  if (diff.ok()) {
    if (simdjson::validate_utf8(diff->text.data(), diff->text.size())) {
      a.diff = std::move(diff->text);
      a.diff_source = std::move(diff->source);
    } else {
      Note(&a, "the diff is not UTF-8 text: not shown");
    }
  } else {
    Note(&a, "no diff: " + diff.status().message());
  }
  return a;
}

}  // namespace kaizen::serve
