// What every learning verb starts from: the home's learning config, the whole log folded into a
// Learner, and the `now` the verb answers for (--now, `end` = the newest event, else the clock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "home/common.h"
#include "home/learned_checkpoint.h"
#include "home/log_views.h"
#include "kaizen/status.h"
#include "learn/learner.h"
#include "text/text_analysis.h"

namespace kaizen::home {

// The defaults with `<home>/config/learning.json` applied, when it exists. InvalidArgument names
// the file, the key, the value and the rule.
Status LoadLearnConfig(const std::string& home, learn::LearnConfig* config);

// The theme taxonomy: the shipped default extended (or, with "replace": true, replaced) by
// <home>/config/themes.json when present (ThemeTaxonomy::FromUserJson; nullopt: no file, the
// shipped default). InvalidArgument names the file, the JSON path, the value and the rule.
Result<std::optional<text::ThemeTaxonomy>> LoadTaxonomy(const std::string& home);

struct LearnedState {
  std::optional<text::ThemeTaxonomy> taxonomy;  // before the learner: it borrows it
  std::unique_ptr<learn::Learner> learner;
  LogScan scan;
  int64_t now_ms = 0;
};

// Folds the home's log into a learner of `parts` (the events of kinds no part reads are only
// counted). `c.now == "end"` answers as of the newest event. `also`, when given, sees each event
// right after the learner folded it (one read of the log for a verb's own fold): read as
// `also_reads` asks, and whatever more the learner reads.
Status LoadLearnedState(const Common& c, LearnedState* out,
                        const std::function<void(const learn::EventViews&)>& also = nullptr,
                        learn::Parts parts = learn::Parts::All(),
                        const learn::ReadScope& also_reads = {});

// Brings the home's checkpoint of the learned state up to the end of its log now, in this process,
// when the log calls for one (home/learned_checkpoint.h). For `kaizen import`: after a large import
// the next verb, often an agent's hook with a budget of seconds, would otherwise fold the whole
// log itself. *use says what was done.
Status CheckpointLearnedState(const std::string& home, CheckpointUse* use);

// Prints `kaizen VERB: message` and returns the exit code the status calls for (2 for a bad
// argument or config, 3 for a system failure).
int FailVerb(std::string_view verb, const Status& s);

// Tells stderr about lines of the log that could not be read (the verb still answers).
void WarnUnreadable(const LogScan& scan);

}  // namespace kaizen::home
