// The themes one review speaks to, from every place a reviewer writes (seed 000 §3.2, §8.1):
// free-text themes extracted at ingest, the rejection reason, blockers and suggestions (through
// the theme taxonomy), and annotation categories. Each theme counts once per review and polarity.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/inputs.h"
#include "text/text_analysis.h"

namespace kaizen::learn {

inline constexpr std::string_view kSourceFeedbackPattern = "feedback-pattern";
inline constexpr std::string_view kSourceRejectionAnalysis = "rejection-analysis";
inline constexpr std::string_view kSourceAnnotation = "annotation";

struct ReviewTheme {
  std::string theme;
  std::string_view source;   // one of the kSource* names: where the theme was first found
  std::string_view example;  // the reviewer's phrase it came from (borrowed from the review)
  int8_t polarity = 0;       // +1 approving or praising, -1 rejecting or criticizing
  double severity = 1;       // §3.2 severity score: the highest of the theme's signals
};

// A review's themes with a polarity, in first-seen order: free text, then reason, blockers,
// suggestions, then annotations. Free text and written reasons take the decision's polarity
// (approved +, rejected or needs-work -; deferred or none: no evidence, left out); annotations
// their type's (praise +, criticism -). Annotation categories are reviewer-written: they are
// folded to a lowercase slug of at most 64 bytes, and left out when nothing remains.
std::vector<ReviewTheme> ReviewThemes(const model::ReviewView& review,
                                      const text::ThemeTaxonomy& taxonomy);

// A review's distinct themes on each side, sorted: what the digests count, each theme once per
// side per review. Kept by its user between reviews, so splitting allocates nothing once warm.
struct PolarThemes {
  std::vector<std::string_view> positive, negative;  // views of the ReviewThemes' names
  void Split(const std::vector<ReviewTheme>& themes);
};

}  // namespace kaizen::learn
