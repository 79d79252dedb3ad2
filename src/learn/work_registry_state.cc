// WorkRegistry's state for Learner::SaveState / LoadState (its methods: work_registry.cc).
#include "learn/event_reader.h"

#include "learn/state_archive.h"

namespace kaizen::learn {
namespace {

// One registration as saved: Register's input less what the registry does not keep.
struct SavedEntry {
  int64_t at_ms = 0;
  std::string artifact_id, version, summary;
  double confidence = 0;
  std::optional<double> score_prediction;
  int64_t iteration_count = 0;
  std::array<uint32_t, 5> names{};  // type, server_type, stage, model, project: names_ indexes
  bool experimental = false;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(at_ms, artifact_id, version, summary, confidence, score_prediction, iteration_count, names,
       experimental);
  }
};

}  // namespace

template <class Archive>
void WorkRegistry::serialize(Archive& ar) {
  std::vector<std::string> names;  // names_ but the first, ""
  if constexpr (!state::kLoading<Archive>) names.assign(names_.begin() + 1, names_.end());
  ar(names);
  if constexpr (state::kLoading<Archive>) {
    state::Require(entries_.empty() && names_.size() == 1, "a registry loaded twice");
    for (const std::string& name : names) {
      const size_t before = names_.size();
      NameId(name);
      state::Require(names_.size() == before + 1, "a work name saved twice, or empty");
    }
  }
  cereal::size_type n = entries_.size();
  ar(cereal::make_size_tag(n));
  for (cereal::size_type i = 0; i < n; ++i) {
    SavedEntry s;
    if constexpr (!state::kLoading<Archive>) {
      const Entry& e = entries_[i];
      s = SavedEntry{e.at_ms,
                     std::string(e.artifact_id),
                     std::string(e.version),
                     std::string(e.summary),
                     e.confidence,
                     e.has_prediction ? std::optional<double>(e.score_prediction) : std::nullopt,
                     e.iteration_count,
                     {e.type, e.server_type, e.stage, e.model, e.project},
                     e.experimental};
    }
    ar(s);
    if constexpr (state::kLoading<Archive>) {
      for (uint32_t id : s.names) state::Require(id < names_.size(), "a work name's index");
      model::WorkView w;
      w.at_ms = s.at_ms;
      w.artifact_id = s.artifact_id;
      w.version = s.version;
      w.summary = s.summary;
      w.confidence = s.confidence;
      w.score_prediction = s.score_prediction;
      w.iteration_count = s.iteration_count;
      w.type = names_[s.names[0]];
      w.server_type = names_[s.names[1]];
      w.stage = names_[s.names[2]];
      w.model = names_[s.names[3]];
      w.project = names_[s.names[4]];
      w.experimental = s.experimental;
      Register(w);
    }
  }
}

KZ_STATE_INSTANTIATE(WorkRegistry);

}  // namespace kaizen::learn
