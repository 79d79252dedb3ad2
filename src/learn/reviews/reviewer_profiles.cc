#include "learn/reviews/reviewer_profiles.h"
#include "learn/reviews/approval.h"
#include "learn/state_archive.h"

#include <algorithm>

namespace kaizen::learn {

// For State::serialize (Learner::SaveState).
template <class Archive>
void serialize(Archive& ar, ThemeLean& t) {
  ar(t.theme, t.positive, t.negative);
}

template <class Archive>
void serialize(Archive& ar, AttributeRecord& a) {
  ar(a.attribute, a.won, a.lost);
}

template <class Archive>
void serialize(Archive& ar, DecidingDimension& d) {
  ar(d.dimension, d.agreed, d.decided);
}

struct ReviewerProfiles::State {
  State(const CommunicationConfig& c, const SignalWeightConfig& w) : communication(c, w) {}

  struct Task {
    int64_t decided = 0, approved = 0;
    int64_t timed = 0;  // of `decided`: with a measured time (not kaizen review's flags)
    double ms_sum = 0;  // timed decided reviews, in log order
    template <class Archive>
    void serialize(Archive& ar) {
      ar(decided, approved, timed, ms_sum);
    }
  };
  int64_t reviews = 0, approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  std::map<std::string, Task, std::less<>> tasks;
  CommunicationLearner communication;
  std::map<std::string, ThemeLean, std::less<>> themes;
  int64_t comparisons = 0;
  std::map<std::string, AttributeRecord, std::less<>> attributes;
  std::map<std::string, DecidingDimension, std::less<>> dimensions;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(reviews, approved, rejected, needs_work, deferred, tasks, communication, themes, comparisons,
       attributes, dimensions);
  }
};

namespace {

void Attributes(const model::WorkView& w, std::vector<std::string>* out) {
  out->clear();
  if (!w.type.empty()) out->push_back("type:" + std::string(w.type));
  if (!w.server_type.empty()) out->push_back("server:" + std::string(w.server_type));
  if (!w.model.empty()) out->push_back("model:" + std::string(w.model));
}

}  // namespace

ReviewerProfiles::ReviewerProfiles(const MemoryConfig& memory, const SpeedConfig& speed,
                                   const CommunicationConfig& communication,
                                   const SignalWeightConfig& weights)
    : memory_(memory), speed_(speed), communication_(communication), weights_(weights) {}

ReviewerProfiles::~ReviewerProfiles() = default;

void ReviewerProfiles::Add(const model::ReviewView& r, const std::vector<ReviewTheme>& themes) {
  auto found = states_.find(r.reviewer);
  if (found == states_.end()) {
    found =
        states_.emplace(std::string(r.reviewer), std::make_unique<State>(communication_, weights_))
            .first;
  }
  State& s = *found->second;
  ++s.reviews;
  s.communication.Add(r);
  const bool decided = r.decision == model::Decision::kApproved ||
                       r.decision == model::Decision::kRejected ||
                       r.decision == model::Decision::kNeedsWork;
  switch (r.decision) {
    case model::Decision::kApproved:
      ++s.approved;
      break;
    case model::Decision::kRejected:
      ++s.rejected;
      break;
    case model::Decision::kNeedsWork:
      ++s.needs_work;
      break;
    case model::Decision::kDeferred:
      ++s.deferred;
      break;
    case model::Decision::kNone:
      break;
  }
  if (decided) {
    State::Task& t = Entry(s.tasks, OrUnspecified(r.task_type));
    ++t.decided;
    if (r.decision == model::Decision::kApproved) ++t.approved;
    if (!r.decision_untimed) {
      ++t.timed;
      t.ms_sum += r.time_to_decision_ms;
    }
  }

  // Themes, polar as ReviewThemes() reads them; each theme once per side per review.
  sides_.Split(themes);
  for (const auto* side : {&sides_.positive, &sides_.negative}) {
    for (std::string_view theme : *side) {
      ThemeLean& lean = Entry(s.themes, theme);
      if (lean.theme.empty()) lean.theme = std::string(theme);
      (side == &sides_.positive ? lean.positive : lean.negative)++;
    }
  }

  if (r.comparison && (r.comparison->preferred == "A" || r.comparison->preferred == "B")) {
    const model::ComparisonView& c = *r.comparison;
    const char preferred = c.preferred[0];
    ++s.comparisons;
    std::vector<std::string> won, lost;
    Attributes(preferred == 'A' ? c.option_a : c.option_b, &won);
    Attributes(preferred == 'A' ? c.option_b : c.option_a, &lost);
    // An attribute both options share says nothing about taste.
    for (const std::string& a : won) {
      if (std::find(lost.begin(), lost.end(), a) != lost.end()) continue;
      AttributeRecord& rec = Entry(s.attributes, a);
      if (rec.attribute.empty()) rec.attribute = a;
      ++rec.won;
    }
    for (const std::string& a : lost) {
      if (std::find(won.begin(), won.end(), a) != won.end()) continue;
      AttributeRecord& rec = Entry(s.attributes, a);
      if (rec.attribute.empty()) rec.attribute = a;
      ++rec.lost;
    }
    for (const model::DimensionWinnerView& d : c.dimensions) {
      if (d.winner != 'A' && d.winner != 'B') continue;
      DecidingDimension& dim = Entry(s.dimensions, d.dimension);
      if (dim.dimension.empty()) dim.dimension = std::string(d.dimension);
      ++dim.decided;
      if (d.winner == preferred) ++dim.agreed;
    }
  }
}

std::vector<std::pair<std::string, int64_t>> ReviewerProfiles::Reviewers() const {
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(states_.size());
  for (const auto& [name, state] : states_) out.emplace_back(name, state->reviews);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.first.empty() != b.first.empty()) return b.first.empty();  // unnamed last
    return a.first < b.first;
  });
  return out;
}

std::optional<ReviewerProfile> ReviewerProfiles::Profile(std::string_view reviewer) const {
  auto found = states_.find(reviewer);
  if (found == states_.end()) return std::nullopt;
  const State& s = *found->second;
  ReviewerProfile p;
  p.reviewer = std::string(reviewer);
  p.reviews = s.reviews;
  p.approved = s.approved;
  p.rejected = s.rejected;
  p.needs_work = s.needs_work;
  p.deferred = s.deferred;
  const double min_reviews = memory_.min_reviews;
  for (const auto& [task, t] : s.tasks) {
    if (static_cast<double>(t.decided) < min_reviews) continue;
    TaskSpeed ts{task, t.decided, t.approved,
                 t.timed ? t.ms_sum / 1000.0 / static_cast<double>(t.timed) : 0};
    const double rate = static_cast<double>(t.approved) / static_cast<double>(t.decided);
    // Speed is judged on timed decisions only, and only on enough of them.
    if (static_cast<double>(t.timed) >= min_reviews) {
      if (ts.avg_seconds < speed_.fast_seconds && rate >= memory_.fast_approval_rate) {
        p.approves_quickly.push_back(ts);
      }
      if (ts.avg_seconds > speed_.slow_seconds) p.deliberates_on.push_back(ts);
    }
    if (t.approved == 0) p.always_rejects.push_back(ts);
  }
  std::stable_sort(
      p.approves_quickly.begin(), p.approves_quickly.end(),
      [](const TaskSpeed& a, const TaskSpeed& b) { return a.avg_seconds < b.avg_seconds; });
  std::stable_sort(
      p.deliberates_on.begin(), p.deliberates_on.end(),
      [](const TaskSpeed& a, const TaskSpeed& b) { return a.avg_seconds > b.avg_seconds; });
  std::stable_sort(p.always_rejects.begin(), p.always_rejects.end(),
                   [](const TaskSpeed& a, const TaskSpeed& b) { return a.decided > b.decided; });

  p.communication = s.communication.Result();
  const EngagementStats* worst = nullptr;
  std::string worst_name;
  for (const auto& [window, stats] : p.communication.windows) {
    if (static_cast<double>(stats.n) < min_reviews) continue;
    if (std::find(p.communication.best_windows.begin(), p.communication.best_windows.end(),
                  window) != p.communication.best_windows.end()) {
      continue;
    }
    if (worst == nullptr || stats.score < worst->score) {
      worst = &stats;
      worst_name = window;
    }
  }
  if (worst != nullptr) p.worst_window = worst_name;

  for (const auto& [theme, lean] : s.themes) {
    if (static_cast<double>(lean.positive) >= memory_.min_signals &&
        lean.positive > lean.negative) {
      p.praised.push_back(lean);
    }
    if (static_cast<double>(lean.negative) >= memory_.min_signals &&
        lean.negative > lean.positive) {
      p.criticized.push_back(lean);
    }
  }
  std::stable_sort(p.praised.begin(), p.praised.end(),
                   [](const ThemeLean& a, const ThemeLean& b) { return a.positive > b.positive; });
  std::stable_sort(p.criticized.begin(), p.criticized.end(),
                   [](const ThemeLean& a, const ThemeLean& b) { return a.negative > b.negative; });

  p.comparisons = s.comparisons;
  for (const auto& [name, rec] : s.attributes) {
    if (rec.won > rec.lost) p.comparison_winners.push_back(rec);
  }
  std::stable_sort(p.comparison_winners.begin(), p.comparison_winners.end(),
                   [](const AttributeRecord& a, const AttributeRecord& b) {
                     return a.won - a.lost > b.won - b.lost;
                   });
  for (const auto& [name, dim] : s.dimensions) {
    if (dim.agreed > 0) p.deciding_dimensions.push_back(dim);
  }
  std::stable_sort(
      p.deciding_dimensions.begin(), p.deciding_dimensions.end(),
      [](const DecidingDimension& a, const DecidingDimension& b) { return a.agreed > b.agreed; });
  return p;
}

std::vector<ReviewerProfile> ReviewerProfiles::Result() const {
  std::vector<ReviewerProfile> out;
  for (const auto& [name, reviews] : Reviewers()) out.push_back(*Profile(name));
  return out;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ReviewerProfiles::serialize(Archive& ar) {
  if constexpr (state::kLoading<Archive>) {
    cereal::size_type n = 0;
    ar(cereal::make_size_tag(n));
    states_.clear();
    for (cereal::size_type i = 0; i < n; ++i) {
      std::string reviewer;
      auto s = std::make_unique<State>(communication_, weights_);
      ar(reviewer, *s);
      state::Require(states_.emplace(std::move(reviewer), std::move(s)).second,
                     "a reviewer saved twice");
    }
  } else {
    std::vector<const std::string*> names;
    for (const auto& [name, s] : states_) names.push_back(&name);
    std::sort(names.begin(), names.end(), [](const auto* a, const auto* b) { return *a < *b; });
    ar(cereal::make_size_tag(static_cast<cereal::size_type>(names.size())));
    for (const std::string* name : names) ar(*name, *states_.find(*name)->second);
  }
}

KZ_STATE_INSTANTIATE(ReviewerProfiles);

}  // namespace kaizen::learn
