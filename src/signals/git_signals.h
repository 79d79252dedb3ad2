// Seed 001 tier 1 reward signals read from git history: merge outcome, revert detection (by
// message and by equivalent inverse diff), human edit after agent edit, iteration count and time
// to completion. Library code: no printing, no clock; the same history gives the same signals.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "kaizen/status.h"
#include "signals/git_history.h"

namespace kaizen::signals {

struct GitScanOptions {
  std::string branch = "HEAD";
  // Signals observed (merge, revert or rewrite commit time) before this are not reported.
  int64_t since_ms = std::numeric_limits<int64_t>::min();
  // seed 001: "detect if commit reverted within N days" (by message or by inverse diff).
  int revert_days = 7;
  // seed 001: "Flag if same lines edited by human within N commits".
  int rewrite_commits = 10;
  // An agent commit whose rewrite window has closed (rewrite_commits later commits exist) with
  // no human rewrite gets a human_edit_after_agent signal of share 0: the measurement that makes
  // the edit-after-agent rate (and the share of commits with signals) countable.
  bool measure_unedited = true;
};

// What found a signal. Each detector maps to one seed 001 signal_type (GitSignal::signal_type).
enum class GitDetector {
  kMerge,             // merge_outcome "merged"
  kRevertMessage,     // merge_outcome "reverted": "This reverts commit <sha>"
  kRevertInverse,     // merge_outcome "reverted": a later patch that exactly undoes the commit
  kHumanEdit,         // human_edit_after_agent: share of the agent's lines a human rewrote
  kIterationCount,    // iteration_count: agent commits on a branch before its merge
  kTimeToCompletion,  // time_efficiency: first agent commit to merge, against a baseline
};
inline constexpr int kGitDetectorCount = 6;

// "merge", "revert", "inverse_diff", "human_edit", "iteration_count", "time_to_completion".
const char* DetectorName(GitDetector d);
// The reward signal_type the detector records (seed 001 names).
const char* DetectorSignalType(GitDetector d);

struct GitSignal {
  GitDetector detector = GitDetector::kMerge;
  // The commits that make the signal, the agent's commit first: (merge), (reverted, reverting),
  // (agent, human). With the detector, the signal's identity: scanning again finds the same one.
  std::vector<std::string> shas;
  std::string agent_commit;  // the agent commit judged (for a merge: the merged agent tip)
  std::string agent;         // the agent identity, "Name <email>"
  int64_t observed_ms = 0;   // commit time of the merge, revert or rewrite
  int64_t action_ms = 0;     // author time of the agent's commit judged
  std::string raw_json;      // raw_value as JSON text ("\"merged\"", "3", "0.25")
  std::optional<double> signal_value;      // only where seed 001 has no normalization rule
  std::optional<double> baseline_seconds;  // time_efficiency
  double confidence = 1;
};

// seed 004 from seed 001's "human edit after agent edit": one hunk of a human commit that
// rewrote lines an agent commit wrote, as original (the agent's lines) -> corrected (the
// human's). Identified by (agent commit, human commit, path, hunk start): a rescan finds it again.
struct GitCorrection {
  std::string agent_commit, human_commit;
  std::string agent;                    // the agent identity, "Name <email>"
  std::string human;                    // the human commit's author, "Name <email>"
  std::string path;                     // in the human commit's first parent
  size_t line_start = 0, line_end = 0;  // the agent's lines the hunk replaced (first parent)
  size_t new_start = 0, new_end = 0;    // the human's lines (new_end < new_start: none added)
  std::string original, corrected;      // the lines, joined with '\n'
  int64_t observed_ms = 0;              // the human commit's time
  int64_t action_ms = 0;                // the agent commit's author time
};

struct GitScanResult {
  std::vector<GitSignal> signals;  // by observed time, then detector, then shas
  // Human rewrites of agent lines, hunk by hunk (observed at or after since_ms): by observed
  // time, then human commit, path and line.
  std::vector<GitCorrection> corrections;
  // Commits whose objects are missing (a partial or damaged clone): the detectors that needed
  // them skipped them. Sorted shas.
  std::vector<std::string> unreadable_commits;
  size_t commits = 0;  // commits reachable from the branch
  size_t agent_commits = 0;
};

// Walks `options.branch` of `repo` and detects every signal. InvalidArgument for an unknown
// branch; IoError when the repository cannot be read.
Result<GitScanResult> ScanGitHistory(GitRepo& repo, const AgentMatcher& agents,
                                     const GitScanOptions& options);

}  // namespace kaizen::signals
