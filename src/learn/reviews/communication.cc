#include "learn/reviews/communication.h"
#include "learn/reviews/approval.h"
#include "learn/state_archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kaizen::learn {

ConfigFields CommunicationConfig::Fields() {
  return {
      {"communication.fast_seconds", &fast_seconds, 0.001, 86400, false,
       "mean seconds to decide at or below which a format counts as fully fast (seed 000 §3.5)"},
      {"communication.rich_fields", &rich_fields, 1, 100, true,
       "optional fields a review fills to count as fully rich feedback (seed 000 §3.5)"},
      {"communication.min_reviews", &min_reviews, 1, 1e6, true,
       "reviews a format or time window needs before it can be best (seed 000 §9.3: 5)"},
  };
}

namespace {

bool Completed(model::Decision d) {
  return d != model::Decision::kDeferred && d != model::Decision::kNone;
}

// ASCII case-insensitive equality: dayOfWeek is stored lowercase, hand-built views may not be.
bool SameWord(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return (x | 0x20) == (y | 0x20); });
}

// "weekday", "weekend", or empty for a missing or unknown day.
std::string_view DayType(std::string_view day) {
  for (std::string_view d : {"saturday", "sunday"}) {
    if (SameWord(day, d)) return "weekend";
  }
  for (std::string_view d : {"monday", "tuesday", "wednesday", "thursday", "friday"}) {
    if (SameWord(day, d)) return "weekday";
  }
  return {};
}

std::optional<double> Mean(double sum, int64_t n) {
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

}  // namespace

double Richness(const model::ReviewView& r, const CommunicationConfig& c) {
  const size_t shown = (r.free_text_chars > 0 ? 1 : 0) + (r.annotations.empty() ? 0 : 1);
  const double fields = static_cast<double>(std::max(r.fields_modified, shown));
  return c.rich_fields > 0 ? std::min(1.0, fields / c.rich_fields) : 1.0;
}

double DecisionSpeed(double avg_seconds, const CommunicationConfig& c) {
  if (avg_seconds <= c.fast_seconds) return 1.0;  // also covers a mean of 0
  return c.fast_seconds / avg_seconds;
}

std::string BreakSuggestion(int64_t reviewed) {
  return fmt::format("You've reviewed {} items — want me to batch the rest for later?", reviewed);
}

void CommunicationLearner::Tally::Add(double review_seconds, double review_richness,
                                      bool review_completed) {
  ++n;
  completed += review_completed ? 1 : 0;
  seconds += review_seconds;
  richness += review_richness;
}

EngagementStats CommunicationLearner::Tally::Stats(const CommunicationConfig& c) const {
  EngagementStats s;
  s.n = n;
  if (n == 0) return s;
  const double count = static_cast<double>(n);
  s.avg_seconds = seconds / count;
  s.richness = richness / count;
  s.completion_rate = static_cast<double>(completed) / count;
  s.score = DecisionSpeed(s.avg_seconds, c) * s.richness * s.completion_rate;
  return s;
}

CommunicationLearner::CommunicationLearner(const CommunicationConfig& config,
                                           const SignalWeightConfig& weights)
    : config_(config), weights_(weights) {}

bool CommunicationLearner::SuggestBreak(int64_t session_fatigue) const {
  return IsFatigued(weights_, session_fatigue);
}

void CommunicationLearner::Add(const model::ReviewView& r) {
  detail_.Add(r);  // what was read is measured also when the decision was not timed
  // Engagement is speed, richness and completion together: a review nobody timed (kaizen review
  // with flags) measured none of how the reviewer engaged with what they were shown.
  if (r.decision_untimed) return;
  const double seconds = r.time_to_decision_ms / 1000.0;
  const double richness = Richness(r, config_);
  const bool completed = Completed(r.decision);
  auto tally = [&](TallyMap& map, std::string_view key) {
    if (key.empty()) key = kUnspecified;
    Entry(map, key).Add(seconds, richness, completed);
  };
  tally(formats_, r.presentation_format);
  tally(windows_, r.time_of_day);
  const std::string_view day_type = DayType(r.day_of_week);
  if (day_type == "weekday") weekday_.Add(seconds, richness, completed);
  if (day_type == "weekend") weekend_.Add(seconds, richness, completed);

  if (!SuggestBreak(r.session_fatigue)) {
    fresh_.Add(seconds, richness, completed);
    return;
  }
  fatigued_.Add(seconds, richness, completed);
  if (r.session_id.empty()) return;
  auto it = tired_sessions_.find(r.session_id);
  if (it == tired_sessions_.end()) {
    it = tired_sessions_.emplace(std::string(r.session_id), r.session_fatigue).first;
  }
  it->second = std::max(it->second, r.session_fatigue);
  // The newest by timestamp; of equal timestamps, the later in the log.
  if (newest_tired_ == nullptr || r.at_ms >= newest_tired_ms_) {
    newest_tired_ = &it->first;
    newest_tired_ms_ = r.at_ms;
  }
}

std::map<std::string, EngagementStats> CommunicationLearner::Sorted(
    const TallyMap& tallies, const CommunicationConfig& config) {
  std::map<std::string, EngagementStats> out;
  for (const auto& [key, tally] : tallies) out.emplace(key, tally.Stats(config));
  return out;
}

namespace {

// Names ordered by score, highest first, ties by name; only those with enough reviews and a
// real name ("unspecified" is no format or window to recommend).
std::vector<std::string> Ranked(const std::map<std::string, EngagementStats>& stats,
                                double min_reviews) {
  std::vector<const std::pair<const std::string, EngagementStats>*> eligible;
  for (const auto& entry : stats) {
    if (entry.first != kUnspecified && static_cast<double>(entry.second.n) >= min_reviews) {
      eligible.push_back(&entry);
    }
  }
  // stable_sort keeps the map's name order among equal scores.
  std::stable_sort(eligible.begin(), eligible.end(),
                   [](const auto* a, const auto* b) { return a->second.score > b->second.score; });
  std::vector<std::string> names;
  for (const auto* e : eligible) names.push_back(e->first);
  return names;
}

}  // namespace

CommunicationResult CommunicationLearner::Result() const {
  CommunicationResult r;
  r.formats = Sorted(formats_, config_);
  if (std::vector<std::string> best = Ranked(r.formats, config_.min_reviews); !best.empty()) {
    r.best_format = best.front();
  }
  r.windows = Sorted(windows_, config_);
  r.best_windows = Ranked(r.windows, config_.min_reviews);
  if (r.best_windows.size() > 2) r.best_windows.resize(2);
  r.detail_level = detail_.Result();
  if (weekday_.n > 0) r.day_types.emplace("weekday", weekday_.Stats(config_));
  if (weekend_.n > 0) r.day_types.emplace("weekend", weekend_.Stats(config_));

  FatigueStats& f = r.fatigue;
  f.threshold = weights_.fatigue_after;
  f.weight = weights_.fatigue_weight;
  f.fatigued_reviews = fatigued_.n;
  f.sessions_needing_break = static_cast<int64_t>(tired_sessions_.size());
  f.fresh_richness = Mean(fresh_.richness, fresh_.n);
  f.fatigued_richness = Mean(fatigued_.richness, fatigued_.n);
  f.fresh_seconds = Mean(fresh_.seconds, fresh_.n);
  f.fatigued_seconds = Mean(fatigued_.seconds, fatigued_.n);
  if (newest_tired_ != nullptr) {
    f.break_suggestion = BreakSuggestion(tired_sessions_.find(*newest_tired_)->second);
  }
  return r;
}

namespace {

void WriteStats(base::JsonWriter& w, const std::map<std::string, EngagementStats>& groups,
                std::string_view score_key) {
  w.StartObject();
  for (const auto& [name, s] : groups) {
    base::Key(w, name);
    w.StartObject();
    base::Key(w, "n");
    w.Int64(s.n);
    base::Key(w, "avgSeconds");
    base::Num(w, s.avg_seconds);
    base::Key(w, "richness");
    base::Num(w, s.richness);
    base::Key(w, "completionRate");
    base::Num(w, s.completion_rate);
    base::Key(w, score_key);
    base::Num(w, s.score);
    w.EndObject();
  }
  w.EndObject();
}

// A whole number (fatigue_after is configured as one) reads as 5, not 5.0.
void WholeOrNum(base::JsonWriter& w, double x) {
  if (std::isfinite(x) && x == std::trunc(x) && std::fabs(x) < 1e15) {
    w.Int64(static_cast<int64_t>(x));
  } else {
    base::Num(w, x);
  }
}

}  // namespace

void WriteJson(base::JsonWriter& w, const CommunicationResult& r) {
  w.StartObject();
  base::Key(w, "formats");
  WriteStats(w, r.formats, "effectiveness");
  base::Key(w, "bestFormat");
  if (r.best_format) {
    base::Str(w, *r.best_format);
  } else {
    w.Null();
  }
  base::Key(w, "windows");
  WriteStats(w, r.windows, "engagement");
  base::Key(w, "dayTypes");
  WriteStats(w, r.day_types, "engagement");
  base::Key(w, "bestWindows");
  base::StrArray(w, r.best_windows);
  base::Key(w, "detailLevel");
  WriteJson(w, r.detail_level);

  const FatigueStats& f = r.fatigue;
  base::Key(w, "fatigue");
  w.StartObject();
  base::Key(w, "threshold");
  WholeOrNum(w, f.threshold);
  base::Key(w, "weight");
  base::Num(w, f.weight);
  base::Key(w, "fatiguedReviews");
  w.Int64(f.fatigued_reviews);
  base::Key(w, "sessionsNeedingBreak");
  w.Int64(f.sessions_needing_break);
  base::Key(w, "freshRichness");
  base::Num(w, f.fresh_richness);
  base::Key(w, "fatiguedRichness");
  base::Num(w, f.fatigued_richness);
  base::Key(w, "freshSeconds");
  base::Num(w, f.fresh_seconds);
  base::Key(w, "fatiguedSeconds");
  base::Num(w, f.fatigued_seconds);
  base::Key(w, "breakSuggestion");
  if (f.break_suggestion) {
    base::Str(w, *f.break_suggestion);
  } else {
    w.Null();
  }
  w.EndObject();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void CommunicationLearner::Tally::serialize(Archive& ar) {
  ar(n, completed, seconds, richness);
}

template <class Archive>
void CommunicationLearner::serialize(Archive& ar) {
  ar(state::SortedMap(formats_), state::SortedMap(windows_), weekday_, weekend_, fresh_, fatigued_,
     state::SortedMap(tired_sessions_), newest_tired_ms_, detail_);
  std::optional<std::string> newest;
  if constexpr (!state::kLoading<Archive>) {
    if (newest_tired_ != nullptr) newest = *newest_tired_;
  }
  ar(newest);
  if constexpr (state::kLoading<Archive>) {
    newest_tired_ = nullptr;
    if (newest) {
      auto it = tired_sessions_.find(*newest);
      state::Require(it != tired_sessions_.end(), "the newest tired session is not among them");
      newest_tired_ = &it->first;
    }
  }
}

KZ_STATE_INSTANTIATE(CommunicationLearner);

}  // namespace kaizen::learn
