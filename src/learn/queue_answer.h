// The review queue as one reviewer sees it at one moment: the answer `kaizen review` and the web
// app's /api/queue both give, so the terminal and the browser agree on the order and its reasons.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "learn/learner.h"
#include "learn/reviews/review_queue.h"

namespace kaizen::learn {

struct QueueAnswer {
  QueueMoment moment;  // its best windows: the reviewer's own once they have enough reviews
  std::optional<std::string> best_format;  // likewise the reviewer's, else everyone's
  std::vector<RankedItem> ranked;          // views into the Learner: valid while it is
  int64_t break_after = 0;                 // reviews in one session before a break is suggested
};

// `time_of_day`: the window the reviewer is in now (morning | afternoon | evening | night), read
// from their clock. An empty `reviewer` is anyone: everyone's windows and format.
QueueAnswer AnswerQueue(const Learner& learner, std::string_view reviewer,
                        std::string_view time_of_day, int64_t now_ms);

// The answer as JSON: now, timeOfDay, utcOffset (the offset timeOfDay was read with, minutes east
// of UTC; null: the local clock of whoever answers), bestWindows, inBestWindow, bestFormat,
// breakAfter, breakSuggestion, total, items (review_queue.h's WriteJson each).
void WriteJson(base::JsonWriter& w, const Learner& learner, const QueueAnswer& answer,
               std::optional<int64_t> utc_offset_minutes);

}  // namespace kaizen::learn
