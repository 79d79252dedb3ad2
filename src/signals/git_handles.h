// libgit2 handles owned by unique_ptr, its one-time set-up and its error text: shared by the
// history scan (git_history.cc) and the review modal's file diff (git_file_diff.cc).
#pragma once

#include <git2.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::signals::git {

// libgit2 keeps global state (its allocator, TLS error slots) that must be set up once per
// process; it is never shut down, since other repositories may still be open.
inline void Init() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

inline std::string LastError() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

// A missing object (a partial clone, a damaged repository) is NotFound, so a scan can skip the
// commit it belongs to; every other failure is an IoError.
inline Status Failure(std::string_view what) {
  const git_error* e = git_error_last();
  std::string message = std::string(what) + ": " + LastError();
  if (e != nullptr && e->klass == GIT_ERROR_ODB) return NotFound(std::move(message));
  return IoError(std::move(message));
}

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using RepoPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using WalkPtr = std::unique_ptr<git_revwalk, Deleter<git_revwalk, git_revwalk_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using BlamePtr = std::unique_ptr<git_blame, Deleter<git_blame, git_blame_free>>;

}  // namespace kaizen::signals::git
