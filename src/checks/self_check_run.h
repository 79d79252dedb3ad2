// The pre-review self-check as one callable piece (seed 000 §6.1, §6.2): the machine checks of
// the active learned rules run on files, the review predicted, the prediction written as a `work`
// event. Shared by `kaizen check` (cli/check.cc) and the `self_check` agent tool (serve/).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checks/machine_check.h"
#include "home/common.h"
#include "home/learned_state.h"
#include "kaizen/status.h"
#include "learn/learner.h"
#include "learn/rules/self_check.h"

namespace kaizen::checks {

// The shipped checks with <home>/config/checks.json merged over them, and its `check` settings
// applied to *config.
Status LoadChecks(const std::string& home, std::vector<CheckSpec>* specs,
                  learn::SelfCheckConfig* config);

// LoadLearnedState of what the self-check reads, its review history (the decided reviews of
// each task type, Learner::review_history) included.
Status LoadSelfCheckState(const home::Common& c, home::LearnedState* out);
// What SelfCheckFiles reads of the learner.
// kApproval: the task type's decisions, for the A/B advice (learn/reviews/compare_advice.h).
inline const learn::Parts kSelfCheckParts = {learn::Part::kRules,       learn::Part::kEvidence,
                                             learn::Part::kGates,       learn::Part::kPreferences,
                                             learn::Part::kCalibration, learn::Part::kAutonomy,
                                             learn::Part::kApproval};

// The artifact id names the checked paths (a later check of the same paths is a new version of
// the same artifact); the version hashes the paths and their bytes.
void ArtifactIds(const std::vector<CheckedFile>& files, std::string* id, std::string* version);

// Runs the checks of every active rule on `files` and predicts the review. The version was
// checked before (its second self-review pass is done) when the learner's log holds a `work`
// event of (artifact_id, version). REQUIRES: the learner folds kSelfCheckParts
// (LoadSelfCheckState's does) and has not folded this run's own work event yet.
learn::SelfCheckResult SelfCheckFiles(const learn::Learner& learner,
                                      const learn::ReviewHistory& history, int64_t now_ms,
                                      std::string_view task_type,
                                      const std::vector<CheckSpec>& specs,
                                      const std::vector<CheckedFile>& files,
                                      const learn::SelfCheckConfig& config,
                                      std::string_view artifact_id, std::string_view version);

// What the prediction is recorded as.
struct PredictionWork {
  std::string type = "code-module";  // workProduct.type
  std::string task_type;             // mcpServerType
  std::vector<std::string> paths;    // workProduct.path when there is exactly one
  std::string id, version;
  // What an agent's hook knows of the generation (`kaizen hook` at the end of a turn). A check
  // run by hand knows none of it: the prompt and model read "unknown", time and iterations 0.
  std::string session_id, stage;  // sessionId, pipelineStage; left out when empty
  std::string what;               // the agent's own words on the work, before the check summary
  std::string prompt_hash = "unknown", model = "unknown";
  int64_t generation_ms = 0, iterations = 0;
  // The agent's change (issue 29): a commit or BASE..HEAD, and/or its unified diff; left out when
  // empty. for_review false: a prediction only, kept out of the review queue.
  std::string commit, diff;
  bool for_review = true;
  // compareWith: the version of the artifact this one is an alternative to (seed 000 §6.4).
  std::string compare_with;
};

// The uncommitted change of `paths` from git (kaizen-git file-diff), to record with the work:
// empty when there is none, the files are in no repository, or it is over the event model's
// string limit (then `note` says so).
std::string WorkingTreeDiff(const std::vector<std::string>& paths, std::string* note);

// The §6.2 prediction as a `work` event (docs/event-model.md).
std::string PredictionWorkEventJson(const PredictionWork& work, const learn::SelfCheckResult& r,
                                    size_t files);

// `kaizen check --json`'s object (no newline): the result's members, then artifactId, version,
// workEventId (null when not stored), recordNote, files and skipped.
std::string SelfCheckJson(const learn::SelfCheckResult& r, const learn::CompareAdvice& compare,
                          const std::vector<CheckedFile>& files,
                          const std::vector<SkippedFile>& skipped, const std::string& id,
                          const std::string& version, bool stored, const std::string& event_id,
                          const std::string& note);

}  // namespace kaizen::checks
