// What the trackers' serialize() (Learner::SaveState / LoadState) are written with: cereal's binary
// archives and its std types, and wrappers that save a hash container in key order, so that the
// saved bytes depend on the state alone, not on the container's insertion history or hash seed.
// Included by the .cc files that define serialize(); headers only forward-declare (state_fwd.h).
#pragma once

#include <cereal/archives/binary.hpp>
#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/common.hpp>
#include <cereal/types/deque.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace kaizen::learn::state {

using OutArchive = cereal::BinaryOutputArchive;
using InArchive = cereal::BinaryInputArchive;

template <class Archive>
inline constexpr bool kLoading = Archive::is_loading::value;

// Loaded state that breaks an invariant the fold keeps (an index out of range, a key twice):
// thrown as cereal's own exception, which LoadState turns into a DataLoss status.
inline void Require(bool ok, const char* what) {
  if (!ok) throw cereal::Exception(std::string("learner state: ") + what);
}

// A hash map saved as (key, value) pairs in ascending key order; loaded into an empty map.
template <class Map>
struct SortedMapRef {
  Map& map;
};
template <class Map>
SortedMapRef<Map> SortedMap(Map& map) {
  return {map};
}

template <class Archive, class Map>
void save(Archive& ar, const SortedMapRef<Map>& s) {
  std::vector<const typename Map::value_type*> items;
  items.reserve(s.map.size());
  for (const auto& item : s.map) items.push_back(&item);
  std::sort(items.begin(), items.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  ar(cereal::make_size_tag(static_cast<cereal::size_type>(items.size())));
  for (const auto* item : items) ar(item->first, item->second);
}

template <class Archive, class Map>
void load(Archive& ar, SortedMapRef<Map>& s) {
  cereal::size_type n = 0;
  ar(cereal::make_size_tag(n));
  s.map.clear();
  for (cereal::size_type i = 0; i < n; ++i) {
    typename Map::key_type key{};
    typename Map::mapped_type value{};
    ar(key, value);
    Require(s.map.emplace(std::move(key), std::move(value)).second, "a map key saved twice");
  }
}

// A hash set saved in ascending order.
template <class Set>
struct SortedSetRef {
  Set& set;
};
template <class Set>
SortedSetRef<Set> SortedSet(Set& set) {
  return {set};
}

template <class Archive, class Set>
void save(Archive& ar, const SortedSetRef<Set>& s) {
  std::vector<typename Set::value_type> items(s.set.begin(), s.set.end());
  std::sort(items.begin(), items.end());
  ar(items);
}

template <class Archive, class Set>
void load(Archive& ar, SortedSetRef<Set>& s) {
  std::vector<typename Set::value_type> items;
  ar(items);
  s.set.clear();
  for (auto& item : items) Require(s.set.insert(std::move(item)).second, "a set value saved twice");
}

}  // namespace kaizen::learn::state

// Instantiates Class::serialize for the two archives, in the .cc that defines it.
#define KZ_STATE_INSTANTIATE(Class)                                       \
  template void Class::serialize(::kaizen::learn::state::OutArchive& ar); \
  template void Class::serialize(::kaizen::learn::state::InArchive& ar)
