// WorkRegistry's registrations and look-ups (declared in event_reader.h; its state in
// work_registry_state.cc): a store the reader only feeds, so kept apart from the decoders.
#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "learn/event_reader.h"

namespace kaizen::learn {

uint32_t WorkRegistry::NameId(std::string_view s) {
  if (s.empty()) return 0;
  auto it = name_ids_.find(s);
  if (it != name_ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(Keep(s));
  name_ids_.emplace(names_.back(), id);
  return id;
}

std::string_view WorkRegistry::Keep(std::string_view s) {
  constexpr size_t kBlock = 1 << 20;
  if (s.size() > arena_left_) {
    size_t size = std::max(kBlock, s.size());
    // Not zeroed: every byte handed out is written by the copy below first.
    arena_.push_back(std::make_unique_for_overwrite<char[]>(size));
    arena_next_ = arena_.back().get();
    arena_left_ = size;
  }
  char* at = arena_next_;
  std::copy(s.begin(), s.end(), at);
  arena_next_ += s.size();
  arena_left_ -= s.size();
  return std::string_view(at, s.size());
}

model::WorkView WorkRegistry::Register(const model::WorkView& work) {
  auto it = latest_.find(work.artifact_id);
  uint32_t previous = it == latest_.end() ? kNone : it->second;
  // A version registered again shadows the earlier registration: Find returns the newest.
  if (previous == kNone || EntryOf(previous, work.version) == kNone) ++size_;
  const uint32_t depth = previous == kNone ? 1 : entries_[previous].depth + 1;
  const auto index = static_cast<uint32_t>(entries_.size());
  // Keep only what the rules read by reference (the summary: comparisons' design words).
  const std::string_view artifact_id =
      it == latest_.end() ? Keep(work.artifact_id) : std::string_view(it->first);
  entries_.push_back(Entry{work.at_ms, artifact_id, Keep(work.version), Keep(work.summary),
                           work.confidence, work.score_prediction.value_or(0), work.iteration_count,
                           previous, depth, NameId(work.type), NameId(work.server_type),
                           NameId(work.stage), NameId(work.model), NameId(work.project),
                           work.score_prediction.has_value(), work.experimental});
  if (it == latest_.end()) {
    latest_.emplace(artifact_id, index);
  } else {
    it->second = index;
  }
  if (depth == kWalked + 1) {
    // The artifact outgrows the walk: index its whole chain, oldest first so the newest wins.
    std::vector<uint32_t> chain;
    for (uint32_t e = index; e != kNone; e = entries_[e].previous) chain.push_back(e);
    for (auto e = chain.rbegin(); e != chain.rend(); ++e) {
      by_version_[{artifact_id, entries_[*e].version}] = *e;
    }
  } else if (depth > kWalked + 1) {
    by_version_[{artifact_id, entries_[index].version}] = index;
  }
  model::WorkView whole = ViewOf(entries_[index]);
  whole.event_id = work.event_id;
  whole.session_id = work.session_id;
  whole.path = work.path;
  whole.priority = names_[NameId(work.priority)];
  whole.commit = work.commit;
  whole.diff = work.diff;
  whole.for_review = work.for_review;
  whole.required_reviews = work.required_reviews;
  whole.compare_with = work.compare_with;
  return whole;
}

model::WorkView WorkRegistry::ViewOf(const Entry& e) const {
  model::WorkView w;
  w.at_ms = e.at_ms;
  w.artifact_id = e.artifact_id;
  w.version = e.version;
  w.type = names_[e.type];
  w.server_type = names_[e.server_type];
  w.stage = names_[e.stage];
  w.model = names_[e.model];
  w.project = names_[e.project];
  w.summary = e.summary;
  w.confidence = e.confidence;
  if (e.has_prediction) w.score_prediction = e.score_prediction;
  w.iteration_count = e.iteration_count;
  w.experimental = e.experimental;
  return w;
}

std::optional<model::WorkView> WorkRegistry::Find(std::string_view artifact_id,
                                                  std::string_view version) const {
  auto it = latest_.find(artifact_id);
  if (it == latest_.end()) return std::nullopt;
  const uint32_t e = version.empty() ? it->second : EntryOf(it->second, version);
  if (e == kNone) return std::nullopt;
  return ViewOf(entries_[e]);
}

uint32_t WorkRegistry::EntryOf(uint32_t latest, std::string_view version) const {
  if (entries_[latest].depth > kWalked) {
    auto it = by_version_.find(std::pair{entries_[latest].artifact_id, version});
    return it == by_version_.end() ? kNone : it->second;
  }
  for (uint32_t e = latest; e != kNone; e = entries_[e].previous) {
    if (entries_[e].version == version) return e;
  }
  return kNone;
}

std::vector<std::string_view> WorkRegistry::Versions(std::string_view artifact_id) const {
  std::vector<std::string_view> out;
  auto it = latest_.find(artifact_id);
  if (it == latest_.end()) return out;
  absl::flat_hash_set<std::string_view> seen;  // never iterated
  for (uint32_t e = it->second; e != kNone; e = entries_[e].previous) {
    const std::string_view v = entries_[e].version;
    if (seen.insert(v).second) out.push_back(v);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace kaizen::learn
