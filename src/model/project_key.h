// The name a project goes by in learning (issue 30 item 5), whichever way an event names it: a
// GitHub repository ("acme/webapp", feedback and work `repository`), the directory an agent
// worked in ("/home/ana/src/webapp/", a prompt's `project`), a clone URL
// ("git@github.com:acme/webapp.git") or a bare name ("webapp", a correction's context.project)
// all name "webapp": the last path component, without trailing separators or ".git". Owners are
// dropped on purpose: the hooks only know a directory, and a team rarely has two repositories of
// one name.
#pragma once

#include <string>
#include <string_view>

namespace kaizen::model {

inline std::string_view ProjectKey(std::string_view raw) {
  auto trim = [&raw] {
    while (!raw.empty() && (raw.back() == '/' || raw.back() == '\\')) raw.remove_suffix(1);
  };
  trim();
  if (raw.ends_with(".git")) raw.remove_suffix(4);
  trim();
  if (const size_t cut = raw.find_last_of("/\\:"); cut != std::string_view::npos) {
    raw.remove_prefix(cut + 1);
  }
  return raw;
}

// Whether a log has named more than one project (by ProjectKey) so far: scoping starts with the
// second project. The first one named is kept to tell.
struct ProjectsNamed {
  std::string first;
  bool several = false;

  void Add(std::string_view key) {
    if (key.empty() || several) return;
    if (first.empty()) {
      first = key;
    } else if (first != key) {
      several = true;
    }
  }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(first, several);
  }
};

}  // namespace kaizen::model
