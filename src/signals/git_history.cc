#include "signals/git_history.h"

#include <algorithm>
#include <filesystem>

#include "model/json_access.h"
#include "signals/git_handles.h"

namespace kaizen::signals {
namespace {

using git::BlamePtr;
using git::CommitPtr;
using git::DiffPtr;
using git::ObjectPtr;
using git::TreePtr;
using git::WalkPtr;

void InitLibgit2() { git::Init(); }
std::string LastError() { return git::LastError(); }
Status GitFailure(std::string_view what) { return git::Failure(what); }

std::string Sha(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

Result<git_oid> ParseSha(std::string_view sha) {
  git_oid oid;
  if (sha.size() != GIT_OID_HEXSZ || git_oid_fromstrn(&oid, sha.data(), sha.size()) != 0) {
    return Internal("not a full commit sha: " + std::string(sha));
  }
  return oid;
}

Result<TreePtr> TreeOf(git_repository* repo, std::string_view sha) {
  KZ_ASSIGN_OR_RETURN(git_oid oid, ParseSha(sha));
  git_commit* commit = nullptr;
  if (git_commit_lookup(&commit, repo, &oid) != 0)
    return GitFailure("reading commit " + std::string(sha));
  CommitPtr owner(commit);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit) != 0)
    return GitFailure("reading the tree of " + std::string(sha));
  return TreePtr(tree);
}

// The commit's diff against its first parent (the empty tree for a root commit); reversed swaps
// the sides, giving the patch that would undo the commit. `context_lines` < 0 keeps git's default
// (3); 0 makes each run of changed lines a hunk of its own.
Result<DiffPtr> CommitDiff(git_repository* repo, const GitCommit& c, bool reversed,
                           int context_lines = -1) {
  KZ_ASSIGN_OR_RETURN(TreePtr tree, TreeOf(repo, c.sha));
  TreePtr parent;
  if (!c.parents.empty()) {
    KZ_ASSIGN_OR_RETURN(parent, TreeOf(repo, c.parents[0]));
  }
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  if (context_lines >= 0) {
    options.context_lines = static_cast<uint32_t>(context_lines);
    options.interhunk_lines = 0;
  }
  git_diff* diff = nullptr;
  git_tree* from = reversed ? tree.get() : parent.get();
  git_tree* to = reversed ? parent.get() : tree.get();
  if (git_diff_tree_to_tree(&diff, repo, from, to, &options) != 0) {
    return GitFailure("diffing commit " + c.sha);
  }
  return DiffPtr(diff);
}

struct LineTally {
  size_t added = 0;
  bool with_text = false;  // collect hunks too
  std::vector<DiffHunkText> hunks;
};

int OnLine(const git_diff_delta* delta, const git_diff_hunk* hunk, const git_diff_line* line,
           void* payload) {
  auto* tally = static_cast<LineTally*>(payload);
  // A submodule's "line" is its "Subproject commit <sha>" entry, not text anyone wrote, and blame
  // cannot read it (a bumped submodule stopped the whole scan).
  if (delta->old_file.mode == GIT_FILEMODE_COMMIT || delta->new_file.mode == GIT_FILEMODE_COMMIT) {
    return 0;
  }
  if (tally->with_text && hunk != nullptr &&
      (line->origin == GIT_DIFF_LINE_ADDITION || line->origin == GIT_DIFF_LINE_DELETION)) {
    const char* path = delta->old_file.path ? delta->old_file.path : "";
    if (tally->hunks.empty() || tally->hunks.back().path != path ||
        tally->hunks.back().old_start != static_cast<size_t>(hunk->old_start) ||
        tally->hunks.back().new_start != static_cast<size_t>(hunk->new_start)) {
      DiffHunkText h;
      h.path = path;
      h.old_start = static_cast<size_t>(hunk->old_start);
      h.new_start = static_cast<size_t>(hunk->new_start);
      tally->hunks.push_back(std::move(h));
    }
    DiffHunkText& h = tally->hunks.back();
    std::string_view text(line->content, line->content_len);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    const bool added = line->origin == GIT_DIFF_LINE_ADDITION;
    if (!added && line->old_lineno > 0)
      h.old_lines.push_back(static_cast<size_t>(line->old_lineno));
    std::vector<std::string>& side = added ? h.new_text : h.old_text;
    if (side.size() < DiffHunkText::kMaxHunkTextLines) {
      side.emplace_back(text);
    } else {
      h.truncated = true;
    }
  }
  if (line->origin == GIT_DIFF_LINE_ADDITION) {
    ++tally->added;
  }
  return 0;
}

Result<LineTally> Tally(git_repository* repo, const GitCommit& c, bool with_text = false) {
  // Hunks without context: each correction is one run of replaced lines.
  KZ_ASSIGN_OR_RETURN(DiffPtr diff, CommitDiff(repo, c, false, with_text ? 0 : -1));
  // Renames paired with their source (as `git show` does): without this a `git mv` deleted every
  // line of the old path, and a human renaming an agent's file counted as rewriting all of it.
  git_diff_find_options find;
  git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
  find.flags = GIT_DIFF_FIND_RENAMES;
  if (git_diff_find_similar(diff.get(), &find) != 0) {
    return GitFailure("finding the renames of " + c.sha);
  }
  LineTally tally;
  tally.with_text = with_text;
  if (git_diff_foreach(diff.get(), nullptr, nullptr, nullptr, OnLine, &tally) != 0) {
    return GitFailure("reading the diff of " + c.sha);
  }
  return tally;
}

}  // namespace

Result<std::unique_ptr<GitRepo>> GitRepo::Open(const std::string& path) {
  InitLibgit2();
  git_repository* repo = nullptr;
  // NO_SEARCH: REPO names the repository itself, not some directory inside one, so a typo never
  // scans an enclosing repository by accident.
  if (git_repository_open_ext(&repo, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return InvalidArgument("REPO " + model::QuoteForMessage(path) +
                           " is not a git repository (give the top directory of a clone or its "
                           ".git directory): " +
                           LastError());
  }
  git::RepoPtr owner(repo);
  // libgit2 1.5 cannot walk past a shallow clone's cut (the missing parents end the walk with
  // "object not found"), and a cut history hides the reverts and rewrites the scan looks for.
  if (git_repository_is_shallow(repo) == 1) {
    return InvalidArgument("REPO " + model::QuoteForMessage(path) +
                           " is a shallow clone (git clone --depth): its history is cut short, so "
                           "it cannot be scanned; fetch the whole history first (git fetch "
                           "--unshallow, or fetch-depth: 0 in CI)");
  }
  return std::unique_ptr<GitRepo>(new GitRepo(owner.release()));
}

GitRepo::~GitRepo() { git_repository_free(repo_); }

std::string GitRepo::Name() const {
  const char* dir = git_repository_workdir(repo_);
  if (!dir) dir = git_repository_path(repo_);
  std::filesystem::path p = std::filesystem::path(dir ? dir : "").lexically_normal();
  std::string name = p.has_filename() ? p.filename().string() : p.parent_path().filename().string();
  if (name == ".git" || name.empty()) name = p.parent_path().parent_path().filename().string();
  return name.empty() ? "repo" : name;
}

Result<std::vector<GitCommit>> GitRepo::History(std::string_view rev, const AgentMatcher& agents) {
  git_object* obj = nullptr;
  std::string spec(rev);
  if (git_revparse_single(&obj, repo_, spec.c_str()) != 0) {
    if (rev == "HEAD" && git_repository_head_unborn(repo_) == 1) return UnbornHead();
    return InvalidArgument("--branch " + model::QuoteForMessage(rev) +
                           " names no commit of the repository: " + LastError());
  }
  ObjectPtr owner(obj);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) != 0) {
    return InvalidArgument("--branch " + model::QuoteForMessage(rev) +
                           " does not name a commit: " + LastError());
  }
  ObjectPtr peeled_owner(peeled);
  git_revwalk* walk = nullptr;
  if (git_revwalk_new(&walk, repo_) != 0) return GitFailure("walking the history");
  WalkPtr walk_owner(walk);
  git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME | GIT_SORT_REVERSE);
  if (git_revwalk_push(walk, git_object_id(peeled)) != 0) return GitFailure("walking the history");
  std::vector<GitCommit> out;
  git_oid oid;
  int rc;
  while ((rc = git_revwalk_next(&oid, walk)) == 0) {
    git_commit* commit = nullptr;
    if (git_commit_lookup(&commit, repo_, &oid) != 0) return GitFailure("reading " + Sha(&oid));
    CommitPtr commit_owner(commit);
    GitCommit c;
    c.sha = Sha(&oid);
    for (unsigned i = 0; i < git_commit_parentcount(commit); ++i) {
      c.parents.push_back(Sha(git_commit_parent_id(commit, i)));
    }
    const git_signature* author = git_commit_author(commit);
    c.author_name = author->name ? author->name : "";
    c.author_email = author->email ? author->email : "";
    c.author_ms = static_cast<int64_t>(author->when.time) * 1000;
    c.commit_ms = static_cast<int64_t>(git_commit_time(commit)) * 1000;
    const char* message = git_commit_message(commit);
    c.message = message ? message : "";
    c.agent = agents.Match(c.author_name, c.author_email, c.message);
    out.push_back(std::move(c));
  }
  if (rc != GIT_ITEROVER) return GitFailure("walking the history");
  return out;
}

Result<std::vector<GitCommit>> GitRepo::UnbornHead() {
  // No reference at all: a repository just made (git init), whose history is empty, not wrong.
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_new(&it, repo_) != 0) return GitFailure("listing the references");
  git_reference* ref = nullptr;
  const int rc = git_reference_next(&ref, it);
  git_reference_free(ref);
  git_reference_iterator_free(it);
  if (rc == GIT_ITEROVER) return std::vector<GitCommit>();
  // Other branches have commits (an orphan branch just checked out, a bare repository whose HEAD
  // names a branch never pushed): an empty scan would hide them.
  std::string target = "?";
  git_reference* head = nullptr;
  if (git_reference_lookup(&head, repo_, "HEAD") == 0) {
    if (const char* t = git_reference_symbolic_target(head)) target = t;
    git_reference_free(head);
  }
  return InvalidArgument("--branch \"HEAD\" (the default) is " + model::QuoteForMessage(target) +
                         ", a branch with no commits yet; name one that has commits with --branch");
}

Result<std::vector<std::string>> GitRepo::Between(std::string_view base, std::string_view tip) {
  KZ_ASSIGN_OR_RETURN(git_oid base_oid, ParseSha(base));
  KZ_ASSIGN_OR_RETURN(git_oid tip_oid, ParseSha(tip));
  git_revwalk* walk = nullptr;
  if (git_revwalk_new(&walk, repo_) != 0) return GitFailure("walking the history");
  WalkPtr owner(walk);
  if (git_revwalk_push(walk, &tip_oid) != 0 || git_revwalk_hide(walk, &base_oid) != 0) {
    return GitFailure("walking a merged branch");
  }
  std::vector<std::string> out;
  git_oid oid;
  int rc;
  while ((rc = git_revwalk_next(&oid, walk)) == 0) out.push_back(Sha(&oid));
  if (rc != GIT_ITEROVER) return GitFailure("walking a merged branch");
  return out;
}

Result<std::string> GitRepo::PatchId(const GitCommit& c, bool reversed) {
  KZ_ASSIGN_OR_RETURN(DiffPtr diff, CommitDiff(repo_, c, reversed));
  if (git_diff_num_deltas(diff.get()) == 0) return std::string();
  git_oid id;
  git_diff_patchid_options options = GIT_DIFF_PATCHID_OPTIONS_INIT;
  if (git_diff_patchid(&id, diff.get(), &options) != 0) return GitFailure("patch id of " + c.sha);
  std::string sha = Sha(&id);
  // A diff of only mode changes or binary files hashes to the id of nothing: not comparable.
  return sha == std::string(GIT_OID_HEXSZ, '0') ? std::string() : sha;
}

Result<size_t> GitRepo::AddedLines(const GitCommit& c) {
  KZ_ASSIGN_OR_RETURN(LineTally tally, Tally(repo_, c));
  return tally.added;
}

Result<std::vector<std::string>> GitRepo::ChangedPaths(const GitCommit& c) {
  KZ_ASSIGN_OR_RETURN(DiffPtr diff, CommitDiff(repo_, c, false));
  std::vector<std::string> out;
  for (size_t i = 0; i < git_diff_num_deltas(diff.get()); ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
    if (d->new_file.path) out.emplace_back(d->new_file.path);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<std::vector<DiffHunkText>> GitRepo::Hunks(const GitCommit& c) {
  KZ_ASSIGN_OR_RETURN(LineTally tally, Tally(repo_, c, /*with_text=*/true));
  return std::move(tally.hunks);
}

Result<std::vector<std::string>> GitRepo::BlameLines(std::string_view at, const std::string& path,
                                                     const std::vector<size_t>& lines,
                                                     std::string_view oldest) {
  std::vector<std::string> out(lines.size());
  if (lines.empty()) return out;
  git_blame_options options;
  git_blame_options_init(&options, GIT_BLAME_OPTIONS_VERSION);
  KZ_ASSIGN_OR_RETURN(options.newest_commit, ParseSha(at));
  if (!oldest.empty()) {
    KZ_ASSIGN_OR_RETURN(options.oldest_commit, ParseSha(oldest));
  }
  auto [lo, hi] = std::minmax_element(lines.begin(), lines.end());
  options.min_line = *lo;
  options.max_line = *hi;
  git_blame* blame = nullptr;
  if (git_blame_file(&blame, repo_, path.c_str(), &options) != 0) {
    return GitFailure("blaming " + path + " at " + std::string(at));
  }
  BlamePtr owner(blame);
  for (size_t i = 0; i < lines.size(); ++i) {
    const git_blame_hunk* hunk = git_blame_get_hunk_byline(blame, lines[i]);
    if (hunk) out[i] = Sha(&hunk->final_commit_id);
  }
  return out;
}

}  // namespace kaizen::signals
