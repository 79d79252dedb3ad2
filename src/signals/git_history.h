// A git repository read with libgit2 (no `git` process): the commits of a branch, oldest first,
// and the per-commit facts the reward signals need (patch ids, added and deleted lines, blame).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kaizen/status.h"
#include "signals/git_agent.h"

struct git_repository;

namespace kaizen::signals {

struct GitCommit {
  std::string sha;  // 40 hex digits
  std::vector<std::string> parents;
  std::string author_name, author_email;
  int64_t author_ms = 0;  // when the change was written
  int64_t commit_ms = 0;  // when it entered the history (a merge's or a revert's moment)
  std::string message;
  std::optional<std::string> agent;  // the agent identity when an agent wrote it (git_agent.h)

  bool is_merge() const { return parents.size() > 1; }
};

// One hunk of a commit's diff against its first parent, with its text: what a person changed,
// for the correction a human rewrite of an agent's lines becomes.
struct DiffHunkText {
  std::string path;                     // in the first parent
  size_t old_start = 0, new_start = 0;  // the hunk's first line on each side (1-based)
  std::vector<size_t> old_lines;        // the lines it deleted, numbered in the first parent
  // The deleted and the added lines without their newlines; kept up to kMaxHunkTextLines each,
  // past which `truncated` is set (a rewrite of a whole file is not one correction).
  std::vector<std::string> old_text, new_text;
  bool truncated = false;
  static constexpr size_t kMaxHunkTextLines = 50;
};

class GitRepo {
 public:
  // InvalidArgument when `path` is not a git repository (its top directory or its .git).
  static Result<std::unique_ptr<GitRepo>> Open(const std::string& path);
  ~GitRepo();
  GitRepo(const GitRepo&) = delete;
  GitRepo& operator=(const GitRepo&) = delete;

  // Every commit reachable from `rev` (a branch, tag, sha or "HEAD"), oldest first: topological
  // order, ties by commit time; none for "HEAD" of a repository with no commit yet.
  // InvalidArgument when `rev` names no commit.
  Result<std::vector<GitCommit>> History(std::string_view rev, const AgentMatcher& agents);

  // The commits reachable from `tip` but not from `base` (a merge's second parent side).
  Result<std::vector<std::string>> Between(std::string_view base, std::string_view tip);

  // The patch id (`git patch-id --stable`) of the commit's diff against its first parent, or of
  // that diff reversed; "" when the diff has no text change.
  Result<std::string> PatchId(const GitCommit& c, bool reversed);
  // Lines the commit added (against its first parent), over all files.
  Result<size_t> AddedLines(const GitCommit& c);
  // The files the commit changed (new paths), sorted.
  Result<std::vector<std::string>> ChangedPaths(const GitCommit& c);
  // The hunks of the commit's diff that delete or add lines, in diff order, with their text.
  Result<std::vector<DiffHunkText>> Hunks(const GitCommit& c);
  // For each of `lines` (of `path` as of commit `at`), the sha of the commit that last wrote it
  // ("" when blame cannot tell). A non-empty `oldest` ends the walk there: lines older than it are
  // given to it.
  Result<std::vector<std::string>> BlameLines(std::string_view at, const std::string& path,
                                              const std::vector<size_t>& lines,
                                              std::string_view oldest = {});

  // The name a user knows the repository by: its working directory's (or bare directory's) name.
  std::string Name() const;

 private:
  explicit GitRepo(git_repository* repo) : repo_(repo) {}
  // History() when HEAD names a branch with no commit: empty for a new repository, an error when
  // other references exist.
  Result<std::vector<GitCommit>> UnbornHead();
  git_repository* repo_;
};

}  // namespace kaizen::signals
