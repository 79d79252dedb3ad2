#include "serve/work_artifact.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "cli/sibling.h"
#include "model/utf8.h"

namespace kaizen::serve {
namespace {

// The most of kaizen-git's answer read: a diff longer than this is not shown.
constexpr size_t kMaxDiffAnswerBytes = size_t{8} << 20;

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
  // kaizen-git reads the repository (cli/sibling.h: libgit2 stays out of kaizen's own start).
  Result<cli::SiblingRun> run =
      cli::RunSibling(cli::kGitProgram, {"file-diff", resolved.string()}, kMaxDiffAnswerBytes);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view text, source;
  if (!run.ok()) {
    Note(&a, "no diff: " + run.status().message());
  } else if (run->exit_code != 0) {
    std::string why = run->err;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    Note(&a,
         "no diff: " +
             (why.empty() ? fmt::format("{} exited {}", cli::kGitProgram, run->exit_code) : why));
  } else if (parser.parse(run->out).get(doc) != simdjson::SUCCESS ||
             doc["text"].get(text) != simdjson::SUCCESS ||
             doc["source"].get(source) != simdjson::SUCCESS) {
    Note(&a, fmt::format("no diff: {} answered {} bytes that are not its JSON (cut at {})",
                         cli::kGitProgram, run->out.size(), kMaxDiffAnswerBytes));
  } else {
    a.diff = std::string(text);
    a.diff_source = std::string(source);
  }
  return a;
}

}  // namespace kaizen::serve
