// seed 000 §8.4 "Quality Rubric Generation": per dimension, how often each score band was given
// and which themes came with the reviews in that band, so a rubric can say what a 9-10 looks
// like (the praise that came with it) and what a 1-4 looks like (the criticism).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "learn/reviews/quality_index.h"
#include "learn/reviews/review_themes.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

// The seed's four bands, best first: 9-10 Exceptional, 7-8 Good, 5-6 Acceptable, 1-4 Rejection
// Zone.
inline constexpr size_t kScoreBandCount = 4;
struct ScoreBandSpec {
  int low, high;
  std::string_view label;  // "Exceptional", ...
};
inline constexpr std::array<ScoreBandSpec, kScoreBandCount> kScoreBands = {{
    {9, 10, "Exceptional"},
    {7, 8, "Good"},
    {5, 6, "Acceptable"},
    {1, 4, "Rejection Zone"},
}};

// The band index (0 = 9-10 ... 3 = 1-4) of a 1..10 score, rounded to the nearest integer (half
// up, as the gates round) and clamped to 1..10.
size_t ScoreBandOf(double score);

struct BandTheme {
  std::string theme;
  int64_t positive = 0;  // reviews in the band where the theme was praise / approval
  int64_t negative = 0;  // ... where it was criticism / rejection
};

struct ScoreBand {
  int64_t count = 0;              // scores of the dimension in this band
  std::vector<BandTheme> themes;  // by positive + negative (highest first), then theme
};

struct DimensionBands {
  std::string dimension;
  int64_t scores = 0;  // every score of the dimension
  std::array<ScoreBand, kScoreBandCount> bands;
};

class ScoreBands {
 public:
  ScoreBands() = default;
  ScoreBands(const ScoreBands&) = delete;  // quality_ points into dimensions_
  ScoreBands& operator=(const ScoreBands&) = delete;

  // Each score of the review counts in its dimension's band; each of the review's themes counts
  // once in that band, by polarity. A review scoring two dimensions adds its themes to both.
  // Amortized O(scores x themes); allocates only for a new dimension or theme.
  void Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes);

  // Every dimension ever scored, sorted by name.
  std::vector<DimensionBands> Result() const;

 private:
  struct Counts {
    int64_t positive = 0, negative = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  template <typename T>
  using Map = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;
  struct Band {
    int64_t count = 0;
    std::unordered_map<uint32_t, Counts> themes;  // by theme id (theme_names_)
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Dimension {
    int64_t scores = 0;
    std::array<Band, kScoreBandCount> bands;
    template <class Archive>
    void serialize(Archive& ar);
  };
  // A review's themes are named once per review, then counted by id in each scored band: a
  // review scores several dimensions, and hashing the names again for each was most of Add.
  uint32_t ThemeId(const std::string& theme);
  // theme_ids_ is rebuilt from theme_names_; quality_ is a cache of lookups by name, and
  // scratch_ scratch space of one Add.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  Map<Dimension> dimensions_;
  Map<uint32_t> theme_ids_;
  std::vector<std::string> theme_names_;
  std::vector<std::pair<uint32_t, bool>> scratch_;  // (theme id, positive) of the current review
  // The seed's dimensions by QualityIndex, once seen: a score finds its entry without hashing.
  // Node-based dimensions_ keeps them in place.
  std::array<Dimension*, kQualityDimensionCount> quality_{};
};

}  // namespace kaizen::learn
