// The retention table of seed 000 §9.1 and seed 004 "Data Retention", applied by `kaizen compact`
// to stored events. Every rule keeps the event (its id, kind, timestamp and everything the policy
// keeps) and is idempotent: a compacted event compacts to itself.
//
//   free text        90 days verbatim, then only its themes: freeText.liked/disliked/generalNotes
//                    and _actionableItems are dropped; _extractedThemes and _sentiment stay
//   corrections      90 days (seed 004 "analysis window"), then original/corrected are replaced by
//                    kExpiredOriginal/kExpiredCorrected; correction_type, _category, context stay
//   annotations      90 days linked to code, then de-linked: `target` becomes {}
//   behavioral meta  30 days, then averaged into <home>/feedback/retained/behavior.json (per UTC
//                    day) and stripped: timeToFirstInteractionMs, fieldsModified, scrollDepth,
//                    revisits, deviceType, concurrentModals are dropped and timeToDecisionMs
//                    becomes the day's mean (the schema requires it)
//   raw day files    90 days hot, then moved to the cold archive (store/file/raw_log.h kColdDir)
//
// Windows are judged per UTC day: a day is past an N-day window once the whole day ended at least
// N days before `now`, so a day file is compacted all at once and its behavioral meta is averaged
// exactly once. Decision metadata (decision, severity, scores, blockers, suggestions, reasons) is
// kept indefinitely (§9.1: "Decision metadata: indefinite"); its text was redacted at ingest.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::ingest {

struct RetentionPolicy {
  int64_t free_text_days = 90;   // seed 000 §9.1 "Free-text comments: 90 days verbatim"
  int64_t correction_days = 90;  // seed 004 "Correction logs retained for 90 days"
  int64_t annotation_days = 90;  // seed 000 §9.1 "Annotation data: 90 days linked to code"
  int64_t behavior_days = 30;    // seed 000 §9.1 "Timing/behavioral meta: 30 days"
  int64_t hot_days = 90;         // seed 000 §9.1 "Raw feedback events: 90 days hot"
};

// What replaces a correction's texts after its window (the schema requires both strings, and
// that they differ).
inline constexpr std::string_view kExpiredOriginal = "";
inline constexpr std::string_view kExpiredCorrected = "[text removed after the retention window]";

inline constexpr std::string_view kBehaviorAggregatesFile = "feedback/retained/behavior.json";

// True when the UTC day `day` ("YYYY-MM-DD") ended at least `days` days before now_ms.
bool DayPastWindow(std::string_view day, int64_t days, int64_t now_ms);

// The behavioral meta of one UTC day, averaged (sums and counts, so later folds stay exact).
struct BehaviorDay {
  struct Stat {
    uint64_t n = 0;
    double sum = 0;
    void Add(double v) {
      ++n;
      sum += v;
    }
  };
  uint64_t reviews = 0;
  Stat time_to_decision_ms, time_to_first_interaction_ms, scroll_depth, revisits, fields_modified,
      concurrent_modals;
  std::map<std::string, uint64_t> device_type;
  double written_time_to_decision_ms = 0;  // the mean written into the stripped events
  std::set<std::string> folded;            // ids of the events folded in (each exactly once)
};

class BehaviorAggregates {
 public:
  // An empty text is an empty set of days. DataLoss names what is wrong.
  static Result<BehaviorAggregates> Parse(std::string_view json);
  std::string Json() const;  // keys sorted, compact, '\n'-terminated

  bool Has(std::string_view day) const { return days_.count(std::string(day)) != 0; }
  // Folds a feedback event's meta into its day unless its id was folded before. The first fold
  // of a day fixes the mean written into that day's events: call Fold for every event of a day
  // before FinishDay.
  void Fold(std::string_view day, simdjson::dom::element feedback);
  // Fixes the mean of timeToDecisionMs written into the day's events (first call only).
  void FinishDay(std::string_view day);
  std::optional<double> WrittenMean(std::string_view day) const;
  bool changed() const { return changed_; }
  const std::map<std::string, BehaviorDay>& days() const { return days_; }

 private:
  std::map<std::string, BehaviorDay> days_;
  std::set<std::string> finished_;  // days whose written mean is fixed
  bool changed_ = false;
};

// What CompactEvent did to one event.
struct CompactionCounts {
  uint64_t free_text = 0, corrections = 0, annotations = 0, behavior = 0;
  bool any() const { return free_text + corrections + annotations + behavior > 0; }
};

// The compacted line for a stored event of day `day`, or nullopt when the policy changes nothing
// (the line stays byte for byte). The behavioral meta of a day past its window is stripped with
// aggregates.WrittenMean(day) as timeToDecisionMs. REQUIRES: the day's events were folded.
std::optional<std::string> CompactEvent(simdjson::dom::element event, std::string_view day,
                                        const RetentionPolicy& policy, int64_t now_ms,
                                        const BehaviorAggregates& aggregates,
                                        CompactionCounts* counts);

}  // namespace kaizen::ingest
