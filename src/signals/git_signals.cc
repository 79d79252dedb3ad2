#include "signals/git_signals.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
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

// Commits whose objects are missing (a partial or damaged clone): each is skipped by the detector
// that could not read it, and counted, instead of stopping the whole scan.
struct Unreadable {
  std::set<std::string> commits;
  // True when `status` is a missing object of `commit` (recorded); false when it is fine.
  // Any other failure is returned through *error.
  bool Skip(const Status& status, const GitCommit& commit, Status* error) {
    if (status.ok()) return false;
    if (status.code() != StatusCode::kNotFound) {
      *error = status;
      return true;
    }
    commits.insert(commit.sha);
    return true;
  }
};

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
                          std::vector<GitSignal>* out, std::set<Pair>* reverted,
                          Unreadable* unreadable) {
  Status error;
  std::map<std::string, std::vector<size_t>> undo;  // reversed patch id -> agent commits
  for (size_t a : w.agent_commits) {
    Result<std::string> id = repo.PatchId(w.commits[a], /*reversed=*/true);
    if (unreadable->Skip(id.status(), w.commits[a], &error)) {
      KZ_RETURN_IF_ERROR(error);
      continue;
    }
    if (!id->empty()) undo[*id].push_back(a);
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
    Result<std::string> id = repo.PatchId(later, /*reversed=*/false);
    if (unreadable->Skip(id.status(), later, &error)) {
      KZ_RETURN_IF_ERROR(error);
      continue;
    }
    auto it = undo.find(*id);
    if (id->empty() || it == undo.end()) continue;
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

// Whether two texts differ in more than whitespace: a re-indent is not a correction.
bool DiffersBeyondWhitespace(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  auto squeeze = [](const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) {
      for (char ch : line) {
        if (ch != ' ' && ch != '\t' && ch != '\r') out.push_back(ch);
      }
    }
    return out;
  };
  return squeeze(a) != squeeze(b);
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

std::string Identity(const GitCommit& c) {
  return c.author_email.empty() ? c.author_name
                                : fmt::format("{} <{}>", c.author_name, c.author_email);
}

// seed 001 "Human edit after agent edit": lines an agent commit added that a human commit within
// the next `rewrite_commits` commits (history order) changed or deleted, found by blaming the
// lines the human commit removed. One signal per (agent commit, human commit), so a later scan
// never needs to change a recorded value; a revert is not counted again as an edit. Each hunk
// that rewrote an agent's lines is also a correction (seed 004): the agent's lines -> the human's.
// With measure_unedited, an agent commit whose window closed with no rewrite gets a share-0
// signal of its own.
Status DetectHumanEdits(GitRepo& repo, const Walked& w, const GitScanOptions& o,
                        const std::set<Pair>& reverted, std::vector<GitSignal>* out,
                        std::vector<GitCorrection>* corrections, Unreadable* unreadable) {
  std::unordered_map<size_t, std::vector<std::string>> paths;  // agent commit -> files it changed
  std::unordered_map<size_t, size_t> added;                    // agent commit -> lines it added
  std::unordered_set<size_t> reverts;  // a revert is its own signal, not also an edit
  std::unordered_set<size_t> reverted_agents, rewritten_agents;
  for (const Pair& p : reverted) {
    reverted_agents.insert(p.first);
    reverts.insert(p.second);
  }
  Status error;
  // The lines an agent commit added, or nullopt when its objects are missing.
  auto added_lines = [&](size_t a) -> Result<std::optional<size_t>> {
    auto it = added.find(a);
    if (it != added.end()) return std::optional<size_t>(it->second);
    Result<size_t> n = repo.AddedLines(w.commits[a]);
    if (unreadable->Skip(n.status(), w.commits[a], &error)) {
      KZ_RETURN_IF_ERROR(error);
      return std::optional<size_t>();
    }
    added[a] = *n;
    return std::optional<size_t>(*n);
  };
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
        Result<std::vector<std::string>> changed = repo.ChangedPaths(w.commits[a]);
        if (unreadable->Skip(changed.status(), w.commits[a], &error)) {
          KZ_RETURN_IF_ERROR(error);
          paths[a] = {};
        } else {
          paths[a] = std::move(*changed);
        }
      }
      agent_paths.insert(paths[a].begin(), paths[a].end());
    }
    Result<std::vector<DiffHunkText>> read = repo.Hunks(human);
    if (unreadable->Skip(read.status(), human, &error)) {
      KZ_RETURN_IF_ERROR(error);
      continue;
    }
    const std::vector<DiffHunkText> hunks = std::move(*read);
    // The deleted lines of each file the window's agent commits touched, blamed once per file.
    std::map<std::string, std::vector<size_t>> deleted;
    for (const DiffHunkText& h : hunks) {
      if (!agent_paths.count(h.path)) continue;
      std::vector<size_t>& lines = deleted[h.path];
      lines.insert(lines.end(), h.old_lines.begin(), h.old_lines.end());
    }
    // Only lines of the window's agent commits count, so blame need not walk further back than
    // the oldest one's parent (older lines are given to it, which is not in the window): blaming
    // the whole history of a file at every human commit made a long history quadratic (20k
    // commits: over 10 minutes).
    const GitCommit& oldest_agent = w.commits[window.front()];
    const std::string oldest =
        oldest_agent.parents.empty() ? std::string() : oldest_agent.parents[0];
    std::map<size_t, size_t> rewritten;  // agent commit -> its lines this commit rewrote
    std::map<std::pair<std::string, size_t>, size_t> author_of;  // (path, old line) -> agent
    for (const auto& [path, lines] : deleted) {
      if (lines.empty()) continue;
      Result<std::vector<std::string>> blame =
          repo.BlameLines(human.parents[0], path, lines, oldest);
      if (unreadable->Skip(blame.status(), human, &error)) {
        KZ_RETURN_IF_ERROR(error);
        continue;
      }
      const std::vector<std::string>& blamed = *blame;
      for (size_t i = 0; i < blamed.size(); ++i) {
        auto a = w.Find(blamed[i]);
        if (a && std::binary_search(window.begin(), window.end(), *a)) {
          ++rewritten[*a];
          author_of[{path, lines[i]}] = *a;
        }
      }
    }
    for (const auto& [a, lines] : rewritten) {
      KZ_ASSIGN_OR_RETURN(std::optional<size_t> n, added_lines(a));
      if (!n || *n == 0) continue;
      rewritten_agents.insert(a);
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
    // Each hunk that replaced an agent's lines: the agent with most lines in it.
    for (const DiffHunkText& h : hunks) {
      std::map<size_t, size_t> by_agent;
      for (size_t line : h.old_lines) {
        auto it = author_of.find({h.path, line});
        if (it != author_of.end()) ++by_agent[it->second];
      }
      if (by_agent.empty() || h.truncated || !DiffersBeyondWhitespace(h.old_text, h.new_text)) {
        continue;
      }
      size_t agent = by_agent.begin()->first;
      for (const auto& [a, n] : by_agent) {
        if (n > by_agent[agent]) agent = a;
      }
      const GitCommit& ac = w.commits[agent];
      GitCorrection x;
      x.agent_commit = ac.sha;
      x.human_commit = human.sha;
      x.agent = ac.agent.value_or("");
      x.human = Identity(human);
      x.path = h.path;
      x.line_start = h.old_lines.front();
      x.line_end = h.old_lines.back();
      x.new_start = h.new_start;
      x.new_end = h.new_start + h.new_text.size() - 1;
      if (h.new_text.empty()) x.new_end = h.new_start > 0 ? h.new_start - 1 : 0;
      x.original = JoinLines(h.old_text);
      x.corrected = JoinLines(h.new_text);
      x.observed_ms = human.commit_ms;
      x.action_ms = ac.author_ms;
      corrections->push_back(std::move(x));
    }
  }
  if (!o.measure_unedited) return Status::Ok();
  // The window of agent commit a closes at commit a + rewrite_commits: from then on no human
  // commit can count against it, so "not rewritten" is a fact that a later scan finds again.
  const auto span = static_cast<size_t>(o.rewrite_commits);
  for (size_t a : w.agent_commits) {
    if (a + span >= w.commits.size() || rewritten_agents.count(a) || reverted_agents.count(a)) {
      continue;
    }
    GitSignal s =
        Make(GitDetector::kHumanEdit, w.commits[a], w.commits[a + span], {w.commits[a].sha}, "0");
    s.signal_value = 1;
    s.confidence = 0.8;
    out->push_back(std::move(s));
  }
  return Status::Ok();
}

}  // namespace

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
  Unreadable unreadable;
  KZ_RETURN_IF_ERROR(DetectInverseDiffs(repo, w, options, &found, &reverted, &unreadable));
  std::vector<GitCorrection> corrections;
  KZ_RETURN_IF_ERROR(
      DetectHumanEdits(repo, w, options, reverted, &found, &corrections, &unreadable));
  result.unreadable_commits.assign(unreadable.commits.begin(), unreadable.commits.end());
  for (GitSignal& s : found) {
    if (s.observed_ms >= options.since_ms) result.signals.push_back(std::move(s));
  }
  for (GitCorrection& x : corrections) {
    if (x.observed_ms >= options.since_ms) result.corrections.push_back(std::move(x));
  }
  std::sort(result.corrections.begin(), result.corrections.end(),
            [](const GitCorrection& a, const GitCorrection& b) {
              return std::tie(a.observed_ms, a.human_commit, a.path, a.line_start) <
                     std::tie(b.observed_ms, b.human_commit, b.path, b.line_start);
            });
  std::sort(result.signals.begin(), result.signals.end(),
            [](const GitSignal& a, const GitSignal& b) {
              if (a.observed_ms != b.observed_ms) return a.observed_ms < b.observed_ms;
              if (a.detector != b.detector) return a.detector < b.detector;
              return a.shas < b.shas;
            });
  return result;
}

}  // namespace kaizen::signals
