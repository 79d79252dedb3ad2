#include "signals/git_file_diff.h"

#include <filesystem>
#include <memory>

#include "signals/git_handles.h"

namespace kaizen::signals {
namespace {

using git::CommitPtr;
using git::DiffPtr;
using git::RepoPtr;
using git::TreePtr;

Status GitFailure(const std::string& what) { return git::Failure(what); }

Result<std::string> PatchText(git_diff* diff) {
  git_buf buf = GIT_BUF_INIT;
  if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) != 0)
    return GitFailure("formatting a diff");
  std::string text(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return text;
}

Result<TreePtr> TreeOf(git_commit* commit) {
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit) != 0) return GitFailure("reading a commit's tree");
  return TreePtr(tree);
}

Result<CommitPtr> CommitAt(git_repository* repo, const std::string& rev) {
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, repo, (rev + "^{commit}").c_str()) != 0) {
    return NotFound("no commit " + rev + " in the repository");
  }
  return CommitPtr(reinterpret_cast<git_commit*>(obj));
}

std::string Short(const git_oid* oid) {
  char sha[8];
  git_oid_tostr(sha, sizeof sha, oid);
  return sha;
}

// The trees a change is between, and how a reviewer should read its source.
struct Change {
  TreePtr from, to;  // `from` null: against nothing (a root commit)
  std::string source;
};

Result<Change> ChangeOf(git_repository* repo, const std::string& commit) {
  Change c;
  if (const size_t dots = commit.find(".."); dots != std::string::npos) {
    // BASE...HEAD (git's three dots): from where HEAD's branch left BASE, as a pull request's
    // change reads; BASE..HEAD: from BASE itself.
    const bool merge_base = commit.compare(dots, 3, "...") == 0;
    const std::string base = commit.substr(0, dots);
    const std::string head = commit.substr(dots + (merge_base ? 3 : 2));
    if (base.empty() || head.empty() || head.front() == '.') {
      return InvalidArgument("\"" + commit + "\" is not a range BASE..HEAD or BASE...HEAD");
    }
    KZ_ASSIGN_OR_RETURN(CommitPtr from, CommitAt(repo, base));
    KZ_ASSIGN_OR_RETURN(CommitPtr to, CommitAt(repo, head));
    if (merge_base) {
      git_oid oid;
      if (git_merge_base(&oid, repo, git_commit_id(from.get()), git_commit_id(to.get())) != 0) {
        return NotFound(base + " and " + head + " have no common ancestor");
      }
      git_commit* b = nullptr;
      if (git_commit_lookup(&b, repo, &oid) != 0) return GitFailure("reading the merge base");
      from.reset(b);
    }
    KZ_ASSIGN_OR_RETURN(c.from, TreeOf(from.get()));
    KZ_ASSIGN_OR_RETURN(c.to, TreeOf(to.get()));
    c.source =
        "commits " + Short(git_commit_id(from.get())) + ".." + Short(git_commit_id(to.get()));
    return c;
  }
  KZ_ASSIGN_OR_RETURN(CommitPtr to, CommitAt(repo, commit));
  KZ_ASSIGN_OR_RETURN(c.to, TreeOf(to.get()));
  if (git_commit_parentcount(to.get()) > 0) {
    git_commit* p = nullptr;
    if (git_commit_parent(&p, to.get(), 0) != 0) return GitFailure("reading a parent");
    CommitPtr parent(p);
    KZ_ASSIGN_OR_RETURN(c.from, TreeOf(parent.get()));
  }
  const char* subject = git_commit_summary(to.get());
  c.source = "commit " + Short(git_commit_id(to.get())) + ": " + (subject ? subject : "");
  return c;
}

}  // namespace

Result<FileDiff> DiffOfPaths(const std::vector<std::string>& paths, const std::string& commit) {
  git::Init();
  namespace fs = std::filesystem;
  if (paths.empty()) return InvalidArgument("no path to diff");
  std::error_code ec;
  const fs::path first(paths.front());
  const fs::path open_at = fs::is_directory(first, ec) ? first : first.parent_path();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, open_at.c_str(), 0, nullptr) != 0) {
    return NotFound(paths.front() + " is not inside a git repository");
  }
  RepoPtr repo(raw);
  const char* workdir = git_repository_workdir(repo.get());
  if (workdir == nullptr)
    return NotFound("the repository of " + paths.front() + " has no working tree");
  const fs::path root = fs::weakly_canonical(workdir, ec);
  // The pathspec: each path relative to the working tree; the root itself means everything.
  std::vector<std::string> rel;
  for (const std::string& p : paths) {
    const fs::path r = fs::weakly_canonical(p, ec).lexically_relative(root);
    if (ec || r.empty() || *r.begin() == "..") {
      return NotFound(p + " is outside the repository's working tree " + root.string());
    }
    if (r != ".") rel.push_back(r.generic_string());
  }
  std::vector<char*> spec;
  for (std::string& r : rel) spec.push_back(r.data());
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH | GIT_DIFF_INCLUDE_UNTRACKED |
               GIT_DIFF_SHOW_UNTRACKED_CONTENT | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
  opts.pathspec.strings = spec.data();
  opts.pathspec.count = spec.size();
  if (rel.empty() || rel.size() != paths.size()) {
    // A directory among the paths: match as git does (prefixes), not file by file.
    opts.flags &= ~GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  }

  git_diff* d = nullptr;
  std::string source;
  if (commit.empty()) {
    // The working tree against HEAD (an unborn HEAD: against nothing).
    TreePtr head_tree;
    git_object* head = nullptr;
    if (git_revparse_single(&head, repo.get(), "HEAD^{tree}") == 0) {
      head_tree.reset(reinterpret_cast<git_tree*>(head));
    }
    if (git_diff_tree_to_workdir_with_index(&d, repo.get(), head_tree.get(), &opts) != 0) {
      return GitFailure("diffing the working tree against HEAD");
    }
    source = "working tree";
  } else {
    KZ_ASSIGN_OR_RETURN(Change change, ChangeOf(repo.get(), commit));
    if (git_diff_tree_to_tree(&d, repo.get(), change.from.get(), change.to.get(), &opts) != 0) {
      return GitFailure("diffing " + commit);
    }
    source = std::move(change.source);
  }
  DiffPtr diff(d);
  if (git_diff_num_deltas(diff.get()) == 0) {
    return NotFound(commit.empty() ? "no uncommitted change"
                                   : source + " does not change these paths");
  }
  KZ_ASSIGN_OR_RETURN(std::string text, PatchText(diff.get()));
  return FileDiff{std::move(text), std::move(source)};
}

}  // namespace kaizen::signals
