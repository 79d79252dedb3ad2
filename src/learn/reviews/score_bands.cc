#include "learn/reviews/score_bands.h"

#include <algorithm>
#include <cmath>

#include "learn/reviews/quality_index.h"
#include "learn/state_archive.h"

namespace kaizen::learn {

size_t ScoreBandOf(double score) {
  const double rounded = std::floor(score + 0.5);
  const int s = std::isfinite(rounded) ? static_cast<int>(std::clamp(rounded, 1.0, 10.0)) : 1;
  for (size_t i = 0; i < kScoreBandCount; ++i) {
    if (s >= kScoreBands[i].low) return i;
  }
  return kScoreBandCount - 1;
}

uint32_t ScoreBands::ThemeId(const std::string& theme) {
  auto it = theme_ids_.find(theme);
  if (it == theme_ids_.end()) {
    it = theme_ids_.emplace(theme, static_cast<uint32_t>(theme_names_.size())).first;
    theme_names_.push_back(theme);
  }
  return it->second;
}

void ScoreBands::Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes) {
  if (review.scores.empty()) return;
  scratch_.clear();
  for (const ReviewTheme& theme : themes) {
    if (theme.polarity == 0 || theme.theme.empty()) continue;
    scratch_.emplace_back(ThemeId(theme.theme), theme.polarity > 0);
  }
  for (const model::ScoreView& score : review.scores) {
    if (score.dimension.empty()) continue;
    Dimension& dim = DimensionEntry(dimensions_, quality_, score.dimension, QualityIndex(score));
    ++dim.scores;
    Band& band = dim.bands[ScoreBandOf(score.score)];
    ++band.count;
    for (const auto& [id, positive] : scratch_) {
      Counts& c = band.themes[id];
      ++(positive ? c.positive : c.negative);
    }
  }
}

std::vector<DimensionBands> ScoreBands::Result() const {
  std::vector<DimensionBands> out;
  out.reserve(dimensions_.size());
  for (const auto& [name, dim] : dimensions_) {
    DimensionBands d;
    d.dimension = name;
    d.scores = dim.scores;
    for (size_t i = 0; i < kScoreBandCount; ++i) {
      ScoreBand& band = d.bands[i];
      band.count = dim.bands[i].count;
      for (const auto& [id, counts] : dim.bands[i].themes) {
        band.themes.push_back({theme_names_[id], counts.positive, counts.negative});
      }
      std::sort(band.themes.begin(), band.themes.end(), [](const BandTheme& a, const BandTheme& b) {
        const int64_t na = a.positive + a.negative, nb = b.positive + b.negative;
        return na != nb ? na > nb : a.theme < b.theme;
      });
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const DimensionBands& a, const DimensionBands& b) {
    return a.dimension < b.dimension;
  });
  return out;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ScoreBands::Counts::serialize(Archive& ar) {
  ar(positive, negative);
}

template <class Archive>
void ScoreBands::Band::serialize(Archive& ar) {
  ar(count, state::SortedMap(themes));
}

template <class Archive>
void ScoreBands::Dimension::serialize(Archive& ar) {
  ar(scores, bands);
}

template <class Archive>
void ScoreBands::serialize(Archive& ar) {
  ar(state::SortedMap(dimensions_), theme_names_);
  if constexpr (state::kLoading<Archive>) {
    theme_ids_.clear();
    for (size_t i = 0; i < theme_names_.size(); ++i) {
      state::Require(theme_ids_.emplace(theme_names_[i], static_cast<uint32_t>(i)).second,
                     "a band theme saved twice");
    }
    for (const auto& [name, dim] : dimensions_) {
      for (const Band& band : dim.bands) {
        for (const auto& [id, counts] : band.themes) {
          state::Require(id < theme_names_.size(), "a band theme id");
        }
      }
    }
  }
}

KZ_STATE_INSTANTIATE(ScoreBands);

}  // namespace kaizen::learn
