#include "signals/git_file_diff.h"

#include <filesystem>

#include "signals/git_handles.h"

namespace kaizen::signals {
namespace {

using git::CommitPtr;
using git::DiffPtr;
using git::RepoPtr;
using git::TreePtr;
using git::WalkPtr;

Status GitFailure(const std::string& what) { return git::Failure(what); }

Result<std::string> PatchText(git_diff* diff) {
  git_buf buf = GIT_BUF_INIT;
  if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) != 0)
    return GitFailure("formatting a diff");
  std::string text(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return text;
}

git_diff_options PathOptions(const std::string& rel, char** spec) {
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH | GIT_DIFF_INCLUDE_UNTRACKED |
               GIT_DIFF_SHOW_UNTRACKED_CONTENT;
  *spec = const_cast<char*>(rel.c_str());
  opts.pathspec.strings = spec;
  opts.pathspec.count = 1;
  return opts;
}

Result<TreePtr> TreeOf(git_commit* commit) {
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit) != 0) return GitFailure("reading a commit's tree");
  return TreePtr(tree);
}

}  // namespace

Result<FileDiff> DiffOfFile(const std::string& path, int max_commits) {
  git::Init();
  namespace fs = std::filesystem;
  const fs::path file(path);
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, file.parent_path().c_str(), 0, nullptr) != 0) {
    return NotFound(path + " is not inside a git repository");
  }
  RepoPtr repo(raw);
  const char* workdir = git_repository_workdir(repo.get());
  if (workdir == nullptr) return NotFound("the repository of " + path + " has no working tree");
  std::error_code ec;
  const fs::path rel_path = fs::relative(file, fs::weakly_canonical(workdir, ec), ec);
  if (ec || rel_path.empty() || *rel_path.begin() == "..") {
    return NotFound(path + " is outside the repository's working tree");
  }
  const std::string rel = rel_path.generic_string();
  char* spec = nullptr;
  git_diff_options opts = PathOptions(rel, &spec);

  // The working tree against HEAD (an unborn HEAD: against nothing).
  TreePtr head_tree;
  git_object* head = nullptr;
  if (git_revparse_single(&head, repo.get(), "HEAD^{tree}") == 0) {
    head_tree.reset(reinterpret_cast<git_tree*>(head));
  }
  git_diff* d = nullptr;
  if (git_diff_tree_to_workdir_with_index(&d, repo.get(), head_tree.get(), &opts) != 0) {
    return GitFailure("diffing " + rel + " against HEAD");
  }
  DiffPtr diff(d);
  if (git_diff_num_deltas(diff.get()) > 0) {
    KZ_ASSIGN_OR_RETURN(std::string text, PatchText(diff.get()));
    return FileDiff{std::move(text), "working tree"};
  }

  // Clean: the newest commit whose tree differs from its first parent's at this path.
  git_revwalk* w = nullptr;
  if (git_revwalk_new(&w, repo.get()) != 0) return GitFailure("walking history");
  WalkPtr walk(w);
  git_revwalk_sorting(walk.get(), GIT_SORT_TIME);
  if (git_revwalk_push_head(walk.get()) != 0) return NotFound(rel + " has no commits yet");
  git_oid oid;
  for (int n = 0; n < max_commits && git_revwalk_next(&oid, walk.get()) == 0; ++n) {
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, repo.get(), &oid) != 0) return GitFailure("reading a commit");
    CommitPtr commit(c);
    KZ_ASSIGN_OR_RETURN(TreePtr tree, TreeOf(commit.get()));
    TreePtr parent_tree;
    if (git_commit_parentcount(commit.get()) > 0) {
      git_commit* p = nullptr;
      if (git_commit_parent(&p, commit.get(), 0) != 0) return GitFailure("reading a parent");
      CommitPtr parent(p);
      KZ_ASSIGN_OR_RETURN(parent_tree, TreeOf(parent.get()));
    }
    git_diff* cd = nullptr;
    if (git_diff_tree_to_tree(&cd, repo.get(), parent_tree.get(), tree.get(), &opts) != 0) {
      return GitFailure("diffing a commit");
    }
    DiffPtr commit_diff(cd);
    if (git_diff_num_deltas(commit_diff.get()) == 0) continue;
    KZ_ASSIGN_OR_RETURN(std::string text, PatchText(commit_diff.get()));
    char sha[8];
    git_oid_tostr(sha, sizeof sha, &oid);
    const char* subject = git_commit_summary(commit.get());
    return FileDiff{std::move(text),
                    std::string("commit ") + sha + ": " + (subject != nullptr ? subject : "")};
  }
  return NotFound(rel + " has no change in the last " + std::to_string(max_commits) + " commits");
}

}  // namespace kaizen::signals
