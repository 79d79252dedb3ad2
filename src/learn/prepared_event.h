// Per-event results that depend on the event alone (and on the learner's taxonomy), not on the
// events before it: Learner::Prepare computes them on the thread that read the event, so the
// log-order fold (the critical path of `kaizen analyze` over a large log) does less. They are
// exactly what the fold would compute itself; an event nobody prepared is computed in the fold.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "learn/corrections/correction_patterns.h"
#include "learn/reviews/review_themes.h"

namespace kaizen::learn {

class Learner;

struct PreparedEvent {
  // The learner these were prepared for (its taxonomy found the themes); nullptr: not prepared.
  const Learner* by = nullptr;
  // feedback: ReviewThemes(review, taxonomy).
  std::vector<ReviewTheme> themes;
  // correction: the type its pattern is grouped under, and what it changed (AnalyzeChange).
  std::string_view correction_type;
  CorrectionChange change;
  // outcome: DetectStrategies(description).
  uint16_t strategies = 0;
};

}  // namespace kaizen::learn
