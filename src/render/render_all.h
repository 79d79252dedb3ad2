// Everything `kaizen render` writes under the home, as one pure function of the learned state at
// `now`: same log, same config, same now, same bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "learn/learner.h"
#include "render/artifact.h"

namespace kaizen::render {

// Every artifact, sorted by path: the §8.3 prompt files, the §8.4 rubrics, the pre-review
// checklist, seed 002's anti-pattern and proven-pattern blocks and per-bead error contexts (each
// only when it has content), plus the memory files and correction pattern files.
std::vector<RenderedFile> RenderAll(const learn::Learner& learner, int64_t now_ms);

}  // namespace kaizen::render
