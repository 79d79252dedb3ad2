// For tests only: a real git repository in a temporary directory, written with libgit2, whose
// commits have the authors, times and files a test gives (top-level files only).
#pragma once

#include <git2.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/test_files.h"

namespace kaizen::signals::testing {

inline constexpr const char* kClaude = "Claude <noreply@anthropic.com>";
inline constexpr const char* kAlice = "Alice Example <alice@example.com>";

class TestRepo {
 public:
  TestRepo() {
    git_libgit2_init();
    dir_ = base::test_files::MakeTempDir("kaizen-git");
    if (git_repository_init(&repo_, dir_.c_str(), /*is_bare=*/0) != 0) repo_ = nullptr;
  }
  ~TestRepo() {
    git_repository_free(repo_);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    git_libgit2_shutdown();
  }
  TestRepo(const TestRepo&) = delete;
  TestRepo& operator=(const TestRepo&) = delete;

  const std::string& dir() const { return dir_; }
  bool ok() const { return repo_ != nullptr; }

  // A commit on top of `parents` (the first parent's files, with `changes` applied: a value
  // replaces a file, nullopt deletes it) by `who` ("Name <email>") at `seconds`. `ref` is moved to
  // it ("HEAD", "refs/heads/feature", or "" for none). Returns the sha ("" on failure).
  std::string Commit(const std::vector<std::string>& parents,
                     const std::map<std::string, std::optional<std::string>>& changes,
                     const std::string& who, int64_t seconds, const std::string& message,
                     const std::string& ref = "HEAD") {
    std::vector<git_commit*> parent_commits;
    git_tree* base = nullptr;
    for (const std::string& p : parents) {
      git_oid oid;
      git_commit* c = nullptr;
      git_oid_fromstr(&oid, p.c_str());
      if (git_commit_lookup(&c, repo_, &oid) != 0) return "";
      parent_commits.push_back(c);
    }
    if (!parent_commits.empty()) git_commit_tree(&base, parent_commits[0]);
    git_treebuilder* builder = nullptr;
    git_treebuilder_new(&builder, repo_, base);
    for (const auto& [path, content] : changes) {
      if (!content) {
        git_treebuilder_remove(builder, path.c_str());
        continue;
      }
      git_oid blob;
      git_blob_create_from_buffer(&blob, repo_, content->data(), content->size());
      git_treebuilder_insert(nullptr, builder, path.c_str(), &blob, GIT_FILEMODE_BLOB);
    }
    git_oid tree_oid, commit_oid;
    git_treebuilder_write(&tree_oid, builder);
    git_treebuilder_free(builder);
    git_tree* tree = nullptr;
    git_tree_lookup(&tree, repo_, &tree_oid);
    size_t lt = who.find(" <");
    std::string name = who.substr(0, lt), email = who.substr(lt + 2, who.size() - lt - 3);
    git_signature* sig = nullptr;
    git_signature_new(&sig, name.c_str(), email.c_str(), seconds, 0);
    std::vector<const git_commit*> cparents(parent_commits.begin(), parent_commits.end());
    int rc = git_commit_create(&commit_oid, repo_, ref.empty() ? nullptr : ref.c_str(), sig, sig,
                               nullptr, message.c_str(), tree, cparents.size(), cparents.data());
    git_signature_free(sig);
    git_tree_free(tree);
    git_tree_free(base);
    for (git_commit* c : parent_commits) git_commit_free(c);
    if (rc != 0) return "";
    char buf[GIT_OID_HEXSZ + 1];
    git_oid_tostr(buf, sizeof buf, &commit_oid);
    return buf;
  }

 private:
  std::string dir_;
  git_repository* repo_ = nullptr;
};

}  // namespace kaizen::signals::testing
