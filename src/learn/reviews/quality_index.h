// Where a score's dimension stands among seed 000's 13 QualityDimensions, and the lookup the
// learners keyed by dimension share: EventReader finds the index once per score, on its own
// thread, so the fold finds a seed dimension's entry without hashing or comparing its name.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "model/inputs.h"

namespace kaizen::learn {

inline constexpr size_t kQualityDimensionCount = 13;

// The index of a seed 000 QualityDimension (model::QualityDimensions order), or -1.
int QualityDimensionIndex(std::string_view dimension);

// The same for a score, from the index its reader stored when there is one.
inline int QualityIndex(const model::ScoreView& s) {
  return s.quality_index != model::ScoreView::kNotLooked ? s.quality_index
                                                         : QualityDimensionIndex(s.dimension);
}

// by_name[name], created when missing, found through by_index[quality] once seen there.
// REQUIRES: by_name keeps its entries in place (a node-based map), and its owner is not copied.
template <typename Map>
typename Map::mapped_type& DimensionEntry(
    Map& by_name, std::array<typename Map::mapped_type*, kQualityDimensionCount>& by_index,
    std::string_view name, int quality) {
  const bool indexed = quality >= 0 && quality < static_cast<int>(by_index.size());
  if (indexed && by_index[quality] != nullptr) return *by_index[quality];
  auto it = by_name.find(name);
  if (it == by_name.end()) {
    it = by_name.emplace(std::string(name), typename Map::mapped_type{}).first;
  }
  if (indexed) by_index[quality] = &it->second;
  return it->second;
}

}  // namespace kaizen::learn
