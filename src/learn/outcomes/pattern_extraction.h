// Pattern extraction (seed 002 "Pattern Extraction"): which of the seed's decomposition
// strategies a free-text decomposition description mentions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::learn {

// seed 002 "Detected strategies", spelled and ordered as there.
inline constexpr std::array<std::string_view, 12> kDetectedStrategies = {
    "Split by file type",
    "Split by component",
    "Split by layer (UI/logic/data)",
    "Split by feature",
    "One file per subtask",
    "Handle shared types first",
    "Separate API routes",
    "Tests alongside implementation",
    "Tests in separate subtask",
    "Maximize parallelization",
    "Sequential execution order",
    "Respect dependency chain",
};

// Bit i is set when the description mentions kDetectedStrategies[i]. Case-insensitive keyword
// rules on word boundaries; hyphens, underscores and runs of whitespace read as one space
// ("file-based" = "file based"). A "by <dimension>" phrase ("by component", "per layer") only
// counts after a splitting word (split, divide, decompose, partition, break, slice, separate,
// chunk, task, subtask) among the four words before it, so "sorted by file type" is not a
// strategy. Negation is not understood: "don't split by feature" mentions splitting by feature.
// Allocates nothing; linear in the description's length.
uint16_t DetectStrategies(std::string_view description);

// The strategies DetectStrategies finds, in the seed's list order.
// seed 002: "We'll split by file type, one file per subtask"
//   -> ["Split by file type", "One file per subtask"]
std::vector<std::string> ExtractPatterns(std::string_view description);

}  // namespace kaizen::learn
