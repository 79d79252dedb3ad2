#include "signals/git_signals.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

namespace kaizen::signals {
namespace {

constexpr int64_t kDayMs = 86'400'000;

// The history with its lookups, shared by the detectors.
struct Walked {
  const std::vector<GitCommit>& commits;
  std::unordered_map<std::string, size_t> index;
  std::vector<std::pair<std::string, size_t>> by_sha;  // sorted: abbreviated shas resolve here
  std::vector<size_t> agent_commits;  // non-merge commits an agent wrote, oldest first

  explicit Walked(const std::vector<GitCommit>& c) : commits(c) {
    for (size_t i = 0; i < c.size(); ++i) {
      index.emplace(c[i].sha, i);
      by_sha.emplace_back(c[i].sha, i);
      if (c[i].agent && !c[i].is_merge()) agent_commits.push_back(i);
    }
    std::sort(by_sha.begin(), by_sha.end());
  }
  std::optional<size_t> Find(const std::string& sha) const {
    auto it = index.find(sha);
    if (it == index.end()) return std::nullopt;
    return it->second;
  }
  // A full or abbreviated (>= 7 hex digits) sha; nullopt when unknown or ambiguous.
  std::optional<size_t> Resolve(std::string sha) const {
    std::transform(sha.begin(), sha.end(), sha.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (sha.size() == 40) return Find(sha);
    // The shas starting with the prefix are adjacent in sorted order: one lookup, not a scan of
    // every commit per revert line.
    auto starts = [&](size_t k) {
      return k < by_sha.size() && std::string_view(by_sha[k].first).starts_with(sha);
    };
    const auto at = static_cast<size_t>(
        std::lower_bound(by_sha.begin(), by_sha.end(), std::pair{sha, size_t{0}}) - by_sha.begin());
    if (!starts(at) || starts(at + 1)) return std::nullopt;  // unknown or ambiguous
    return by_sha[at].second;
  }
};

// The commits a signal names, as an ordered pair of history indexes (agent commit, other).
using Pair = std::pair<size_t, size_t>;

std::string Quoted(std::string_view s) { return fmt::format("\"{}\"", s); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

GitSignal Make(GitDetector d, const GitCommit& agent_commit, const GitCommit& observed,
               std::vector<std::string> shas, std::string raw_json) {
  GitSignal s;
  s.detector = d;
  s.shas = std::move(shas);
  s.agent_commit = agent_commit.sha;
  s.agent = agent_commit.agent.value_or("");
  s.observed_ms = observed.commit_ms;
  s.action_ms = agent_commit.author_ms;
  s.raw_json = std::move(raw_json);
  return s;
}

// Merge outcome, iteration count and time to completion: one of each per merge on the branch's
// first-parent line whose merged side holds agent commits. Fills merged_tip: merge -> the agent
// tip it brought in (a revert of the merge reverts that agent work).
Status DetectMerges(GitRepo& repo, const Walked& w, std::vector<GitSignal>* out,
                    std::unordered_map<size_t, size_t>* merged_tip) {
  // The first-parent line from the tip: the branch's own commits, merges included.
  std::unordered_set<std::string> parents;
  for (const GitCommit& c : w.commits)
    for (const std::string& p : c.parents) parents.insert(p);
  std::optional<size_t> at;
  for (size_t i = w.commits.size(); i-- > 0;) {
    if (!parents.count(w.commits[i].sha)) {
      at = i;
      break;
    }
  }
  std::vector<size_t> line;
  while (at) {
    line.push_back(*at);
    const GitCommit& c = w.commits[*at];
    at = c.parents.empty() ? std::nullopt : w.Find(c.parents[0]);
  }
  std::reverse(line.begin(), line.end());

  std::vector<double> earlier_seconds;  // time to completion of the merges before, for baselines
  for (size_t m : line) {
    const GitCommit& merge = w.commits[m];
    if (!merge.is_merge()) continue;
    KZ_ASSIGN_OR_RETURN(std::vector<std::string> side, repo.Between(merge.parents[0], merge.sha));
    std::vector<size_t> agents;
    for (const std::string& sha : side) {
      auto i = w.Find(sha);
      if (i && *i != m && w.commits[*i].agent && !w.commits[*i].is_merge()) agents.push_back(*i);
    }
    if (agents.empty()) continue;
    std::sort(agents.begin(), agents.end());
    const GitCommit& tip = w.commits[agents.back()];
    (*merged_tip)[m] = agents.back();
    int64_t first_ms = tip.author_ms;
    for (size_t a : agents) first_ms = std::min(first_ms, w.commits[a].author_ms);

    out->push_back(Make(GitDetector::kMerge, tip, merge, {merge.sha}, Quoted("merged")));
    // seed 001 "Iteration count: N iterations -> 1.0 / N": the agent's commits on the branch.
    out->push_back(Make(GitDetector::kIterationCount, tip, merge, {merge.sha},
                        fmt::format("{}", agents.size())));
    // seed 001 "Time efficiency: seconds, inverse normalized against baseline": the baseline is
    // the median time to completion of the agent branches merged before this one (history only,
    // so the value never changes once recorded); the first merge has no baseline and no signal.
    // At least 1 s: a merge in the same second as the commit would divide by zero.
    double seconds = std::max<double>(1, static_cast<double>(merge.commit_ms - first_ms) / 1000);
    if (!earlier_seconds.empty()) {
      GitSignal t = Make(GitDetector::kTimeToCompletion, tip, merge, {merge.sha},
                         fmt::format("{}", static_cast<int64_t>(std::llround(seconds))));
      t.action_ms = first_ms;
      t.baseline_seconds = std::llround(Median(earlier_seconds));
      out->push_back(std::move(t));
    }
    earlier_seconds.push_back(seconds);
  }
  return Status::Ok();
}

// "This reverts commit <sha>" (what `git revert` writes) naming an agent commit, or a merge that
// brought agent commits in, within the revert window.
void DetectRevertMessages(const Walked& w, const GitScanOptions& o,
                          const std::unordered_map<size_t, size_t>& merged_tip,
                          std::vector<GitSignal>* out, std::set<Pair>* reverted) {
  static const RE2 kReverts(R"(This reverts commit ([0-9a-fA-F]{7,40}))");
  for (size_t c = 0; c < w.commits.size(); ++c) {
    const GitCommit& revert = w.commits[c];
    re2::StringPiece input(revert.message);
    std::string sha;
    while (RE2::FindAndConsume(&input, kReverts, &sha)) {
      auto r = w.Resolve(sha);
      if (!r || *r == c) continue;
      std::optional<size_t> target;
      if (w.commits[*r].agent && !w.commits[*r].is_merge()) target = *r;
      if (auto it = merged_tip.find(*r); it != merged_tip.end()) target = it->second;
      if (!target) continue;
      if (revert.commit_ms - w.commits[*r].commit_ms > o.revert_days * kDayMs) continue;
      if (!reverted->insert({*target, c}).second) continue;
      out->push_back(Make(GitDetector::kRevertMessage, w.commits[*target], revert,
                          {w.commits[*r].sha, revert.sha}, Quoted("reverted")));
    }
  }
}

// A later commit within the revert window whose patch id equals that of an agent commit's
// reversed patch: the agent's change undone, whatever the message says.
Status DetectInverseDiffs(GitRepo& repo, const Walked& w, const GitScanOptions& o,
                          std::vector<GitSignal>* out, std::set<Pair>* reverted) {
  std::map<std::string, std::vector<size_t>> undo;  // reversed patch id -> agent commits
  for (size_t a : w.agent_commits) {
    KZ_ASSIGN_OR_RETURN(std::string id, repo.PatchId(w.commits[a], /*reversed=*/true));
    if (!id.empty()) undo[id].push_back(a);
  }
  if (undo.empty()) return Status::Ok();
  const int64_t window = o.revert_days * kDayMs;
  for (size_t c = 0; c < w.commits.size(); ++c) {
    const GitCommit& later = w.commits[c];
    if (later.is_merge()) continue;
    // Only commits with an agent commit before them in the window are worth a diff.
    bool candidate = false;
    for (size_t a : w.agent_commits) {
      if (a >= c) break;
      candidate = candidate || later.commit_ms - w.commits[a].commit_ms <= window;
    }
    if (!candidate) continue;
    KZ_ASSIGN_OR_RETURN(std::string id, repo.PatchId(later, /*reversed=*/false));
    auto it = undo.find(id);
    if (id.empty() || it == undo.end()) continue;
    for (size_t a : it->second) {
      if (a >= c || later.commit_ms - w.commits[a].commit_ms > window) continue;
      if (!reverted->insert({a, c}).second) continue;  // found by its message already
      GitSignal s = Make(GitDetector::kRevertInverse, w.commits[a], later,
                         {w.commits[a].sha, later.sha}, Quoted("reverted"));
      s.confidence = 0.9;  // no message says so: an identical undo could be a coincidence
      out->push_back(std::move(s));
    }
  }
  return Status::Ok();
}

// seed 001 "Human edit after agent edit": lines an agent commit added that a human commit within
// the next `rewrite_commits` commits (history order) changed or deleted, found by blaming the
// lines the human commit removed. One signal per (agent commit, human commit), so a later scan
// never needs to change a recorded value; a revert is not counted again as an edit.
Status DetectHumanEdits(GitRepo& repo, const Walked& w, const GitScanOptions& o,
                        const std::set<Pair>& reverted, std::vector<GitSignal>* out) {
  std::unordered_map<size_t, std::vector<std::string>> paths;  // agent commit -> files it changed
  std::unordered_map<size_t, size_t> added;                    // agent commit -> lines it added
  std::unordered_set<size_t> reverts;  // a revert is its own signal, not also an edit
  for (const Pair& p : reverted) reverts.insert(p.second);
  for (size_t c = 0; c < w.commits.size(); ++c) {
    const GitCommit& human = w.commits[c];
    if (human.agent || human.is_merge() || human.parents.empty() || reverts.count(c)) continue;
    std::vector<size_t> window;
    for (size_t a : w.agent_commits) {
      if (a < c && c - a <= static_cast<size_t>(o.rewrite_commits)) window.push_back(a);
    }
    if (window.empty()) continue;
    std::set<std::string> agent_paths;
    for (size_t a : window) {
      if (!paths.count(a)) {
        KZ_ASSIGN_OR_RETURN(paths[a], repo.ChangedPaths(w.commits[a]));
      }
      agent_paths.insert(paths[a].begin(), paths[a].end());
    }
    KZ_ASSIGN_OR_RETURN(std::vector<DeletedLines> deleted, repo.Deleted(human));
    // Only lines of the window's agent commits count, so blame need not walk further back than
    // the oldest one's parent (older lines are given to it, which is not in the window): blaming
    // the whole history of a file at every human commit made a long history quadratic (20k
    // commits: over 10 minutes).
    const GitCommit& oldest_agent = w.commits[window.front()];
    const std::string oldest =
        oldest_agent.parents.empty() ? std::string() : oldest_agent.parents[0];
    std::map<size_t, size_t> rewritten;  // agent commit -> its lines this commit rewrote
    for (const DeletedLines& d : deleted) {
      if (!agent_paths.count(d.path)) continue;
      KZ_ASSIGN_OR_RETURN(std::vector<std::string> blamed,
                          repo.BlameLines(human.parents[0], d.path, d.old_lines, oldest));
      for (const std::string& sha : blamed) {
        auto a = w.Find(sha);
        if (a && std::binary_search(window.begin(), window.end(), *a)) ++rewritten[*a];
      }
    }
    for (const auto& [a, lines] : rewritten) {
      if (!added.count(a)) {
        KZ_ASSIGN_OR_RETURN(added[a], repo.AddedLines(w.commits[a]));
      }
      if (added[a] == 0) continue;
      // Lines moved or rewritten twice on parallel branches could count past 100%.
      double share = std::min(1.0, static_cast<double>(lines) / static_cast<double>(added[a]));
      share = std::round(share * 10000) / 10000;
      GitSignal s = Make(GitDetector::kHumanEdit, w.commits[a], human,
                         {w.commits[a].sha, human.sha}, fmt::format("{}", share));
      // seed 001 normalizes every signal so that 1.0 is good (pass, merged, fewer iterations):
      // none of the agent's lines rewritten is 1.0, all of them 0.0. raw_value keeps the share.
      s.signal_value = 1 - share;
      s.confidence = 0.8;  // blame attributes moved and reformatted lines as rewritten
      out->push_back(std::move(s));
    }
  }
  return Status::Ok();
}

}  // namespace

const char* DetectorName(GitDetector d) {
  switch (d) {
    case GitDetector::kMerge:
      return "merge";
    case GitDetector::kRevertMessage:
      return "revert";
    case GitDetector::kRevertInverse:
      return "inverse_diff";
    case GitDetector::kHumanEdit:
      return "human_edit";
    case GitDetector::kIterationCount:
      return "iteration_count";
    case GitDetector::kTimeToCompletion:
      return "time_to_completion";
  }
  return "?";
}

const char* DetectorSignalType(GitDetector d) {
  switch (d) {
    case GitDetector::kMerge:
    case GitDetector::kRevertMessage:
    case GitDetector::kRevertInverse:
      return "merge_outcome";  // seed 001: merged / closed / reverted
    case GitDetector::kHumanEdit:
      return "human_edit_after_agent";  // no seed 001 normalization: signal_value is given
    case GitDetector::kIterationCount:
      return "iteration_count";
    case GitDetector::kTimeToCompletion:
      return "time_efficiency";
  }
  return "?";
}

Result<GitScanResult> ScanGitHistory(GitRepo& repo, const AgentMatcher& agents,
                                     const GitScanOptions& options) {
  KZ_ASSIGN_OR_RETURN(std::vector<GitCommit> commits, repo.History(options.branch, agents));
  Walked w(commits);
  GitScanResult result;
  result.commits = commits.size();
  result.agent_commits = w.agent_commits.size();
  std::vector<GitSignal> found;
  std::unordered_map<size_t, size_t> merged_tip;
  std::set<Pair> reverted;
  KZ_RETURN_IF_ERROR(DetectMerges(repo, w, &found, &merged_tip));
  DetectRevertMessages(w, options, merged_tip, &found, &reverted);
  KZ_RETURN_IF_ERROR(DetectInverseDiffs(repo, w, options, &found, &reverted));
  KZ_RETURN_IF_ERROR(DetectHumanEdits(repo, w, options, reverted, &found));
  for (GitSignal& s : found) {
    if (s.observed_ms >= options.since_ms) result.signals.push_back(std::move(s));
  }
  std::sort(result.signals.begin(), result.signals.end(),
            [](const GitSignal& a, const GitSignal& b) {
              if (a.observed_ms != b.observed_ms) return a.observed_ms < b.observed_ms;
              if (a.detector != b.detector) return a.detector < b.detector;
              return a.shas < b.shas;
            });
  return result;
}

}  // namespace kaizen::signals
