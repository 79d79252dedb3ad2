// Derived views of the raw log (seed 000 §2.2): indexes and aggregates. A pure fold over stored
// events in log order, so `kaizen rebuild` reproduces them byte for byte. Nothing here is the
// truth: deleting every derived file loses nothing.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kaizen::ingest {

// Counters for one period (a week, a month, the rolling 30 days, all time).
struct PeriodStats {
  std::map<std::string, uint64_t> events_by_kind;
  std::map<std::string, uint64_t> decisions;
  uint64_t scores = 0;
  double score_sum = 0;
  uint64_t decision_time_n = 0;
  double decision_time_sum = 0;
  uint64_t prediction_n = 0;
  double prediction_abs_error_sum = 0;
  std::map<std::string, std::pair<uint64_t, double>> dimension_sums;  // n, sum
  uint64_t outcomes = 0, outcome_successes = 0;
  std::map<std::string, std::pair<uint64_t, double>> rewards;  // signal_type -> n, sum
  std::map<std::string, uint64_t> corrections;
  std::string first_timestamp, last_timestamp;
};

class DerivedBuilder {
 public:
  // REQUIRES: `event` is a stored event (validated, with id and UTC timestamp).
  void Add(simdjson::dom::element event);

  // Relative path (under the home) -> file content, for every derived file.
  std::map<std::string, std::string> Files() const;
  const PeriodStats& all_time() const { return all_; }
  // The 30 UTC days ending with the newest event's day (a function of the log, not of the clock).
  PeriodStats Rolling30d() const;
  uint64_t events() const { return events_; }

 private:
  struct Group {
    uint64_t count = 0;
    std::vector<std::string> ids;
  };
  struct DimensionIndex {
    uint64_t count = 0;
    double sum = 0;
    uint64_t histogram[10] = {};
    std::vector<std::string> ids;
  };

  uint64_t events_ = 0;
  std::map<std::string, Group> by_server_type_, by_decision_, by_stage_;
  std::map<std::string, DimensionIndex> by_dimension_;
  std::map<std::string, PeriodStats> daily_, weekly_, monthly_;
  PeriodStats all_;
  int64_t newest_ms_ = 0;
};

// The JSON text of a period's stats.
std::string PeriodJson(const std::string& period, const PeriodStats& stats);

}  // namespace kaizen::ingest
