#include "learn/reviews/bias_watch.h"

#include <algorithm>

#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// Rates and means are compared against thresholds given in decimal (0.05, 0.5); a difference
// that is exactly the threshold in decimal may be a hair below it in binary.
constexpr double kTolerance = 1e-9;

}  // namespace

ConfigFields BiasConfig::Fields() {
  return {
      {"bias.window_days", &window_days, 1, 3650, true,
       "length of each of the three windows compared (seed 000 §9.3: 30-day rolling)"},
      {"bias.approval_rise", &approval_rise, 0, 1, false,
       "approval-rate rise, first window to last, that counts as rising (seed 000 §9.4)"},
      {"bias.creativity_drop", &creativity_drop, 0, 10, false,
       "fall in mean creativity score, first window to last, that counts (seed 000 §9.4)"},
      {"bias.min_scores", &min_scores, 1, 1e9, true,
       "creativity scores every window needs before the watch can flag (seed 000 §9.4)"},
      {"bias.exploration_budget", &exploration_budget, 0, 1, false,
       "share of outputs that may be experimental (seed 000 §9.4: 10%)"},
  };
}

void BiasWatch::Add(const model::ReviewView& review) {
  const model::Decision d = review.decision;
  const bool decided = d == model::Decision::kApproved || d == model::Decision::kRejected ||
                       d == model::Decision::kNeedsWork;
  bool creative = false;
  for (const model::ScoreView& s : review.scores)
    creative = creative || s.dimension == "creativity";
  if (!decided && !creative) return;
  Day& day = days_[model::DayOf(review.at_ms)];
  if (decided) {
    ++day.decided;
    if (d == model::Decision::kApproved) ++day.approved;
  }
  for (const model::ScoreView& s : review.scores) {
    if (s.dimension != "creativity") continue;
    day.creativity_sum += s.score;
    ++day.creativity_n;
  }
}

void BiasWatch::AddWork(const model::WorkView& work) {
  Day& day = days_[model::DayOf(work.at_ms)];
  ++day.work;
  if (work.experimental) ++day.experimental;
}

BiasResult BiasWatch::Result(int64_t now_ms) const {
  BiasResult out;
  const auto length = static_cast<int64_t>(config_.window_days);
  const int64_t today = model::DayOf(now_ms);
  for (int64_t k = 2; k >= 0; --k) {
    BiasWindow w;
    w.last_day = today - k * length;
    w.first_day = w.last_day - length + 1;
    double creativity_sum = 0;
    for (int64_t day = w.first_day; day <= w.last_day; ++day) {  // day order: a stable sum
      auto it = days_.find(day);
      if (it == days_.end()) continue;
      w.approved += it->second.approved;
      w.decided += it->second.decided;
      creativity_sum += it->second.creativity_sum;
      w.creativity_n += it->second.creativity_n;
    }
    if (w.decided > 0) {
      w.approval_rate = static_cast<double>(w.approved) / static_cast<double>(w.decided);
    }
    if (w.creativity_n > 0) w.creativity = creativity_sum / static_cast<double>(w.creativity_n);
    out.windows.push_back(w);
  }

  // §9.4 "if creativity drops as approval rises, inject more experimental variation".
  const BiasWindow& first = out.windows.front();
  const BiasWindow& last = out.windows.back();
  bool judged = true;
  for (const BiasWindow& w : out.windows) {
    judged = judged && w.approval_rate && static_cast<double>(w.creativity_n) >= config_.min_scores;
  }
  if (judged && *last.approval_rate - *first.approval_rate >= config_.approval_rise - kTolerance &&
      *first.creativity - *last.creativity >= config_.creativity_drop - kTolerance) {
    out.overly_conservative = true;
    out.action = "inject more experimental variation";
  }

  ExplorationUse& e = out.exploration;
  e.budget = config_.exploration_budget;
  for (int64_t day = last.first_day; day <= last.last_day; ++day) {
    auto it = days_.find(day);
    if (it == days_.end()) continue;
    e.used += it->second.experimental;
    e.total += it->second.work;
  }
  if (e.total > 0) e.share = static_cast<double>(e.used) / static_cast<double>(e.total);
  e.remaining =
      std::max(0.0, e.budget * static_cast<double>(e.total) - static_cast<double>(e.used));
  return out;
}

double ExplorationDraw(std::string_view artifact_id) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (char c : artifact_id) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;  // FNV-1a 64 prime
  }
  // splitmix64 finalizer
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

void WriteJson(base::JsonWriter& w, const BiasResult& result) {
  w.StartObject();
  base::Key(w, "windows");
  w.StartArray();
  for (const BiasWindow& win : result.windows) {
    w.StartObject();
    base::Key(w, "from");
    base::Str(w, model::FormatDay(win.first_day * model::kMsPerDay));
    base::Key(w, "to");
    base::Str(w, model::FormatDay(win.last_day * model::kMsPerDay));
    base::Key(w, "approvalRate");
    base::Num(w, win.approval_rate);
    base::Key(w, "creativity");
    base::Num(w, win.creativity);
    base::Key(w, "creativityN");
    w.Int64(win.creativity_n);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "overlyConservative");
  w.Bool(result.overly_conservative);
  base::Key(w, "action");
  if (result.action) {
    base::Str(w, *result.action);
  } else {
    w.Null();
  }
  const ExplorationUse& e = result.exploration;
  base::Key(w, "exploration");
  w.StartObject();
  base::Key(w, "budget");
  base::Num(w, e.budget);
  base::Key(w, "used");
  w.Int64(e.used);
  base::Key(w, "total");
  w.Int64(e.total);
  base::Key(w, "share");
  base::Num(w, e.share);
  base::Key(w, "remaining");
  base::Num(w, e.remaining);
  w.EndObject();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void BiasWatch::Day::serialize(Archive& ar) {
  ar(approved, decided, creativity_sum, creativity_n, work, experimental);
}

template <class Archive>
void BiasWatch::serialize(Archive& ar) {
  ar(state::SortedMap(days_));
}

KZ_STATE_INSTANTIATE(BiasWatch);

}  // namespace kaizen::learn
