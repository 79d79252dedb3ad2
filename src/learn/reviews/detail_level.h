// seed 000 §3.5 "Detail Level Calibration": which sections of a work's summary reviewers read, and
// which they open for more. The review page reports, per section it showed (`meta.sections`), the
// time the section was on screen and whether the reviewer expanded it ("Show more"). Per section
// name, over the reviews that showed it:
//   read     visible for read_ms or longer;
//   expand   "Show more" clicked.
// Advice once a section was shown min_reviews times (seed 000 §9.3: no conclusion from fewer):
//   drop     read in under drop_share of them ("never reads Architecture Decisions -> compress or
//            remove it");
//   expand   expanded in expand_share or more ("always expands Test Coverage -> default to
//            expanded, make it prominent").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct DetailLevelConfig {
  double read_ms = 2000;      // kaizen: two seconds on screen is a read, not a scroll past
  double min_reviews = 5;     // seed 000 §9.3
  double drop_share = 0.2;    // kaizen: read in under 1 of 5 reviews that showed it
  double expand_share = 0.5;  // kaizen: expanded in half of them or more
};

struct SectionStats {
  std::string name;
  int64_t shown = 0, read = 0, expanded = 0;
  double mean_visible_seconds = 0;
  std::string advice;  // "drop" | "expand" | ""
};

class DetailLevelTracker {
 public:
  explicit DetailLevelTracker(const DetailLevelConfig& config = {}) : config_(config) {}
  void Add(const model::ReviewView& review);
  // By name; advice as above.
  std::vector<SectionStats> Result() const;

 private:
  struct Tally {
    int64_t shown = 0, read = 0, expanded = 0;
    double visible_ms = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  // Section names as the page shows them (headings of the summary), at most kMaxSections kept.
  static constexpr size_t kMaxSections = 256;
  std::map<std::string, Tally, std::less<>> sections_;
  DetailLevelConfig config_;
};

// `detailLevel`: [{section, shown, read, expanded, meanVisibleSeconds, advice}].
void WriteJson(base::JsonWriter& w, const std::vector<SectionStats>& sections);

}  // namespace kaizen::learn
