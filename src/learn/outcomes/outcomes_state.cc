// OutcomeLearner's state for Learner::SaveState / LoadState (outcomes.cc is long enough).
#include "learn/outcomes/outcomes.h"

#include "learn/state_archive.h"

namespace kaizen::learn {

template <class Archive>
void StrategyStats::serialize(Archive& ar) {
  ar(strategy, outcomes, successes, helpful, harmful);
}

template <class Archive>
void OutcomeLearner::Observation::serialize(Archive& ar) {
  ar(at_ms, raw_hundredths, type, success);
}

template <class Archive>
void OutcomeLearner::Recent::serialize(Archive& ar) {
  ar(at_ms, seq, bead_id, observation);
}

template <class Archive>
void OutcomeLearner::Evidence::serialize(Archive& ar) {
  ar(name, observations, successes, failures, newest);
}

template <class Archive>
void OutcomeLearner::BeadEvidence::serialize(Archive& ar) {
  ar(criteria, patterns);
}

template <class Archive>
void OutcomeLearner::serialize(Archive& ar) {
  ar(outcome_count_, signal_count_, state::SortedMap(beads_), criteria_, patterns_, strategies_);
  if constexpr (state::kLoading<Archive>) {
    auto reindex = [](Index& index, const auto& table, auto name_of) {
      index.clear();
      for (size_t i = 0; i < table.size(); ++i) {
        state::Require(index.emplace(name_of(table[i]), static_cast<uint32_t>(i)).second,
                       "an outcome name saved twice");
      }
    };
    auto evidence_name = [](const Evidence& e) { return e.name; };
    reindex(criterion_index_, criteria_, evidence_name);
    reindex(pattern_index_, patterns_, evidence_name);
    reindex(strategy_index_, strategies_, [](const StrategyStats& s) { return s.strategy; });
    for (const auto& [bead, evidence] : beads_) {
      for (uint32_t id : evidence.criteria)
        state::Require(id < criteria_.size(), "a bad criterion");
      for (uint32_t id : evidence.patterns) state::Require(id < patterns_.size(), "a bad pattern");
    }
    current_.clear();
    stamp_.clear();
    generation_ = 0;
  }
}

KZ_STATE_INSTANTIATE(StrategyStats);
KZ_STATE_INSTANTIATE(OutcomeLearner);

}  // namespace kaizen::learn
