// What a tracker's header needs for its private `template <class Archive> void serialize(Archive&)`
// (Learner::SaveState / LoadState): cereal's access class, to befriend. The definitions live in
// the tracker's .cc (learn/state_archive.h), instantiated for the binary archives only.
#pragma once

namespace cereal {
class access;
}  // namespace cereal
