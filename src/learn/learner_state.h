// The bytes of Learner::SaveState: a 40-byte header, then cereal's binary archive of the folded
// state of the Learner and its trackers (learner_state.cc; each tracker's serialize() sits next
// to its code).
//
//   offset  size  field
//        0     4  magic "KZLS"
//        4     4  format version (kLearnerStateVersion); another is refused
//        8     8  the saving Learner's folded parts, bit i for Part i; others are refused
//       16     8  fingerprint of every LearnConfig value; another config is refused
//       24     8  payload bytes
//       32     8  checksum of bytes 0..31 and the payload
//       40        payload
//
// Integers are little-endian, as cereal's binary archive writes the payload (in host order:
// kaizen builds for little-endian hosts only). The taxonomy is not fingerprinted: LoadState
// REQUIRES the one the state was saved with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kaizen::learn {

// Bumped whenever any tracker's saved members change.
// 2: the self-check's review history; 3: queue items keep the agent's change, superseded versions
// and dismissals leave the queue; 4: reservations on queue items; 5: projects (work registry,
// rule book).
inline constexpr uint32_t kLearnerStateVersion = 5;

namespace state_format {

inline constexpr std::string_view kMagic = "KZLS";
inline constexpr size_t kVersionAt = 4;
inline constexpr size_t kPartsAt = 8;
inline constexpr size_t kConfigAt = 16;
inline constexpr size_t kPayloadSizeAt = 24;
inline constexpr size_t kChecksumAt = 32;
inline constexpr size_t kHeaderBytes = 40;

// FNV-1a a word at a time, folding the high bits down at each step (as ingest's records): it
// detects torn and damaged bytes, nothing more. `head` is the header up to the checksum.
uint64_t Checksum(std::string_view head, std::string_view payload);

}  // namespace state_format
}  // namespace kaizen::learn
