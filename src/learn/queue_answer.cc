#include "learn/queue_answer.h"

#include <algorithm>

#include "learn/reviews/communication.h"
#include "model/timestamp.h"

namespace kaizen::learn {

QueueAnswer AnswerQueue(const Learner& learner, std::string_view reviewer,
                        std::string_view time_of_day, int64_t now_ms) {
  CommunicationResult comm = learner.communication().Result();
  if (!reviewer.empty()) {
    if (auto p = learner.profiles().Profile(reviewer)) {
      if (!p->communication.best_windows.empty()) comm.best_windows = p->communication.best_windows;
      if (p->communication.best_format) comm.best_format = p->communication.best_format;
    }
  }
  QueueAnswer answer;
  answer.moment = QueueMoment{time_of_day, std::move(comm.best_windows), reviewer, now_ms};
  answer.best_format = std::move(comm.best_format);
  answer.ranked = OrderQueue(learner.queue(), learner.autonomy(), answer.moment);
  answer.break_after = static_cast<int64_t>(learner.config().weights.fatigue_after);
  return answer;
}

void WriteJson(base::JsonWriter& w, const Learner& learner, const QueueAnswer& answer,
               std::optional<int64_t> utc_offset_minutes) {
  const QueueMoment& moment = answer.moment;
  w.StartObject();
  base::Key(w, "now");
  base::Str(w, model::FormatUtc(moment.now_ms));
  base::Key(w, "timeOfDay");
  base::Str(w, moment.time_of_day);
  base::Key(w, "utcOffset");
  if (utc_offset_minutes) {
    w.Int64(*utc_offset_minutes);
  } else {
    w.Null();
  }
  base::Key(w, "bestWindows");
  base::StrArray(w, moment.best_windows);
  base::Key(w, "inBestWindow");
  w.Bool(std::find(moment.best_windows.begin(), moment.best_windows.end(), moment.time_of_day) !=
         moment.best_windows.end());
  base::Key(w, "bestFormat");
  if (answer.best_format) {
    base::Str(w, *answer.best_format);
  } else {
    w.Null();
  }
  base::Key(w, "breakAfter");
  w.Int64(answer.break_after);
  base::Key(w, "breakSuggestion");
  base::Str(w, BreakSuggestion(answer.break_after));
  base::Key(w, "total");
  w.Uint64(answer.ranked.size());
  base::Key(w, "items");
  w.StartArray();
  for (const RankedItem& r : answer.ranked) {
    WriteJson(w, r, learner.work_registry().Versions(r.item->artifact_id), moment.now_ms);
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace kaizen::learn
