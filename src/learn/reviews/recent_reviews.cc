#include "learn/reviews/recent_reviews.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "base/utf8.h"
#include "learn/reviews/approval.h"
#include "learn/state_archive.h"

namespace kaizen::learn {
namespace {

// Cuts on a UTF-8 boundary: the renderer sanitizes again, but a kept copy must stay valid text.
std::string_view Capped(std::string_view text) {
  return base::Utf8Prefix(text, KeptReview::kKeptBytes);
}

// The first kKeptItems non-empty text_of(item) of `from`, capped.
template <typename Texts, typename TextOf>
void FirstFew(const Texts& from, TextOf text_of, std::vector<std::string_view>* to) {
  to->clear();
  for (const auto& item : from) {
    if (to->size() >= KeptReview::kKeptItems) break;
    const std::string_view s = text_of(item);
    if (!s.empty()) to->push_back(Capped(s));
  }
}

// Copies what k's views view into k->text, reserved once so that no append moves the buffer
// under the views already taken, and points the views at the copies.
void Own(KeptReview* k) {
  size_t bytes = 0;
  for (std::string_view s :
       {k->id, k->reviewer, k->server_type, k->work_type, k->stage, k->reason}) {
    bytes += s.size();
  }
  for (const auto* list : {&k->blockers, &k->suggestions, &k->criticisms, &k->themes}) {
    for (std::string_view s : *list) bytes += s.size();
  }
  for (const auto& score : k->scores) bytes += score.first.size();
  std::string& text = k->text;
  text.clear();
  text.reserve(bytes);
  auto copy = [&text](std::string_view* s) {
    const size_t at = text.size();
    text.append(*s);
    *s = std::string_view(text.data() + at, s->size());
  };
  for (std::string_view* s :
       {&k->id, &k->reviewer, &k->server_type, &k->work_type, &k->stage, &k->reason}) {
    copy(s);
  }
  for (auto* list : {&k->blockers, &k->suggestions, &k->criticisms, &k->themes}) {
    for (std::string_view& s : *list) copy(&s);
  }
  for (auto& score : k->scores) copy(&score.first);
}

// Fills `k` (new, or recycled: every field is assigned) with what the memory files quote of `r`:
// first the views of `r` worth keeping, then their copies in k->text (Own).
void Fill(const model::ReviewView& r, const std::vector<ReviewTheme>& themes, KeptReview* k) {
  k->at_ms = r.at_ms;
  k->decision = r.decision;
  k->time_to_decision_ms = r.time_to_decision_ms;
  k->id = r.id;
  k->reviewer = Capped(r.reviewer);
  k->server_type = Capped(r.server_type);
  k->work_type = Capped(r.work.type);
  k->stage = Capped(r.stage);
  k->reason = Capped(r.reason);
  auto itself = [](std::string_view s) { return s; };
  FirstFew(r.blockers, itself, &k->blockers);
  FirstFew(r.suggestions, itself, &k->suggestions);
  auto criticism = [](const model::AnnotationView& a) {
    return a.type == "criticism" ? a.text : std::string_view();
  };
  FirstFew(r.annotations, criticism, &k->criticisms);
  k->themes.clear();
  for (const ReviewTheme& t : themes) k->themes.push_back(Capped(t.theme));
  std::sort(k->themes.begin(), k->themes.end());
  k->themes.erase(std::unique(k->themes.begin(), k->themes.end()), k->themes.end());
  k->scores.clear();
  for (const model::ScoreView& s : r.scores) k->scores.emplace_back(s.dimension, s.score);
  Own(k);
}

}  // namespace

ConfigFields MemoryConfig::Fields() {
  return {
      {"memory.budget_bytes", &budget_bytes, 512, 1e7, true,
       "size budget of each memory file; lowest-priority lines are left out first (seed 000 §5.2)"},
      {"memory.recent_days", &recent_days, 0, 3650, true,
       "reviews this many days old or newer are quoted directly (seed 000 §5.2: 0-7 days)"},
      {"memory.weekly_days", &weekly_days, 0, 3650, true,
       "older reviews up to this age are summarized per ISO week (seed 000 §5.2: 8-30 days)"},
      {"memory.pattern_days", &pattern_days, 0, 3650, true,
       "older reviews up to this age count only as patterns; beyond it only durable rules "
       "(seed 000 §5.2: 31-90 days)"},
      {"memory.quoted_per_day", &quoted_per_day, 0, 1000, true,
       "reviews kept whole per UTC day for quoting"},
      {"memory.top_themes", &top_themes, 1, 1000, true,
       "recurring themes listed (seed 000 §5.1: top 10)"},
      {"memory.consistent_share", &consistent_share, 0.5, 1, false,
       "share of a theme's signals on one side that makes it consistently rejected or praised"},
      {"memory.min_signals", &min_signals, 1, 1e9, true,
       "signals a theme needs before it is an anti-pattern or positive pattern (seed 000 §9.2: "
       "3+)"},
      {"memory.fast_approval_rate", &fast_approval_rate, 0, 1, false,
       "approval rate of a task type a reviewer 'approves quickly' (seed 000 §3.4: >80%)"},
      {"memory.min_reviews", &min_reviews, 1, 1e9, true,
       "reviews a per-reviewer conclusion needs (seed 000 §9.3: 5)"},
      {"memory.similar_limit", &similar_limit, 0, 100, true,
       "similar past reviews in a context (seed 000 §5.3: 5)"},
      {"memory.min_similarity", &min_similarity, 0, 1, false,
       "similarity a past review needs to be similar (seed 000 §5.3: 0.7)"},
      {"memory.similar_lookback", &similar_lookback, 1, 100000, true,
       "newest reviews kept per server type for the similarity search"},
      {"memory.context_budget_tokens", &context_budget_tokens, 1, 1e7, true,
       "token budget of `kaizen context` without --budget (tokens = bytes / 4)"},
  };
}

std::string_view DecisionWord(model::Decision d) {
  switch (d) {
    case model::Decision::kApproved:
      return "approved";
    case model::Decision::kRejected:
      return "rejected";
    case model::Decision::kNeedsWork:
      return "needs-work";
    case model::Decision::kDeferred:
      return "deferred";
    case model::Decision::kNone:
      break;
  }
  return "none";
}

double Similarity(const SimilarityQuery& q, const KeptReview& r) {
  double s = 0;
  if (q.server_type.empty() || q.server_type == r.server_type) s += 0.4;
  if (q.work_type.empty() || q.work_type == r.work_type) s += 0.2;
  if (q.stage.empty() || q.stage == r.stage) s += 0.2;
  if (q.dimensions.empty()) {
    s += 0.2;
  } else {
    // Jaccard over distinct names; the query's list is small, so quadratic is fine.
    std::vector<std::string_view> mine;
    for (const auto& [dim, score] : r.scores) {
      if (std::find(mine.begin(), mine.end(), dim) == mine.end()) mine.push_back(dim);
    }
    std::vector<std::string_view> theirs;
    for (const std::string& d : q.dimensions) {
      if (std::find(theirs.begin(), theirs.end(), d) == theirs.end()) theirs.push_back(d);
    }
    size_t both = 0;
    for (std::string_view d : theirs) {
      if (std::find(mine.begin(), mine.end(), d) != mine.end()) ++both;
    }
    const size_t either = mine.size() + theirs.size() - both;
    if (either > 0) s += 0.2 * static_cast<double>(both) / static_cast<double>(either);
  }
  return s;
}

RecentReviews::RecentReviews(const MemoryConfig& config) : config_(config) {}

void RecentReviews::Push(Ring& ring, const std::shared_ptr<const KeptReview>& kept, size_t limit) {
  ring.push_back(kept);
  while (ring.size() > limit) {
    Retire(std::move(ring.front()));
    ring.pop_front();
  }
}

// Most reviews leave every ring within a few dozen newer ones: their copies are reused rather than
// freed and allocated again (a dozen strings per review, on the fold's critical path).
void RecentReviews::Retire(std::shared_ptr<const KeptReview> kept) {
  constexpr size_t kSpares = 8;
  if (spares_.size() < kSpares && kept.use_count() == 1) {
    spares_.push_back(std::const_pointer_cast<KeptReview>(std::move(kept)));
  }
}

std::shared_ptr<KeptReview> RecentReviews::Recycled() {
  while (!spares_.empty()) {
    std::shared_ptr<KeptReview> k = std::move(spares_.back());
    spares_.pop_back();
    // Only if nobody else holds it (a copy of this state, a reader's SimilarReview); the fence
    // orders this write after their last read, which released their reference.
    if (k.use_count() == 1) {
      std::atomic_thread_fence(std::memory_order_acquire);
      return k;
    }
  }
  return std::make_shared<KeptReview>();
}

void RecentReviews::Add(const model::ReviewView& r, const std::vector<ReviewTheme>& themes,
                        int level_after) {
  const int64_t day = model::DayOf(r.at_ms);
  if (last_day_ == nullptr || last_day_->day != day) {
    last_day_ = &days_[day];
    last_day_->day = day;
  }
  DayDigest& d = *last_day_;
  ++d.reviews;
  switch (r.decision) {
    case model::Decision::kApproved:
      ++d.approved;
      break;
    case model::Decision::kRejected:
      ++d.rejected;
      break;
    case model::Decision::kNeedsWork:
      ++d.needs_work;
      break;
    case model::Decision::kDeferred:
      ++d.deferred;
      break;
    case model::Decision::kNone:
      break;
  }
  double mean = 0;
  for (const model::ScoreView& s : r.scores) {
    mean += s.score;
    const int dim = QualityIndex(s);
    if (dim < 0 || !std::isfinite(s.score)) continue;
    const int bucket =
        std::clamp(static_cast<int>(std::lround(s.score)), 1, DimensionTally::kBuckets) - 1;
    ++d.dimensions[dim].n[bucket];
    d.dimensions[dim].sum[bucket] += s.score;
  }
  const bool scored = !r.scores.empty() && std::isfinite(mean);
  if (scored) {
    mean /= static_cast<double>(r.scores.size());
    d.review_mean_sum += mean;
    ++d.scored_reviews;
  }
  sides_.Split(themes);
  for (std::string_view t : sides_.positive) {
    ThemeTally& tally = Entry(d.themes, t);
    ++tally.positive;
    if (scored) {
      tally.positive_score_sum += mean;
      ++tally.positive_scored;
    }
  }
  for (std::string_view t : sides_.negative) ++Entry(d.themes, t).negative;

  std::shared_ptr<KeptReview> fresh = Recycled();
  Fill(r, themes, fresh.get());
  const std::shared_ptr<const KeptReview> kept = std::move(fresh);
  if (config_.quoted_per_day > 0) {
    Push(d.kept, kept, static_cast<size_t>(config_.quoted_per_day));
  }
  const auto lookback = static_cast<size_t>(config_.similar_lookback);
  Push(newest_, kept, lookback);
  auto ring = by_server_.find(r.server_type);
  if (ring == by_server_.end()) ring = by_server_.emplace(std::string(r.server_type), Ring{}).first;
  Push(ring->second, kept, lookback);

  // The AutonomyTracker's key for the task type.
  std::string_view task = OrUnspecified(r.task_type);
  auto level = levels_.find(task);
  if (level == levels_.end()) level = levels_.emplace(std::string(task), 0).first;
  if (level->second != level_after) {
    level_changes_.push_back({level->first, level->second, level_after, r.at_ms});
    level->second = level_after;
  }
}

std::vector<SimilarReview> RecentReviews::Similar(const SimilarityQuery& query, int64_t now_ms,
                                                  size_t limit, double min_similarity) const {
  std::vector<SimilarReview> out;
  if (limit == 0) return out;
  const Ring* ring = &newest_;
  // Only when no other server type can reach the bar is the server type's ring complete.
  if (!query.server_type.empty() && min_similarity > 0.6 + 1e-9) {
    auto it = by_server_.find(query.server_type);
    if (it == by_server_.end()) return out;
    ring = &it->second;
  }
  for (auto it = ring->rbegin(); it != ring->rend() && out.size() < limit; ++it) {
    const KeptReview& r = **it;
    if (r.at_ms > now_ms) continue;
    const double s = Similarity(query, r);
    if (s + 1e-9 >= min_similarity) out.push_back({*it, s});
  }
  // Rings are in log order; a log written out of time order still lists newest first.
  std::stable_sort(out.begin(), out.end(), [](const SimilarReview& a, const SimilarReview& b) {
    return a.review->at_ms > b.review->at_ms;
  });
  return out;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

namespace {

// A KeptReview as saved: its strings, not views of them.
struct SavedReview {
  int64_t at_ms = 0;
  model::Decision decision = model::Decision::kNone;
  double time_to_decision_ms = 0;
  std::array<std::string, 6> fields;  // id, reviewer, server_type, work_type, stage, reason
  std::array<std::vector<std::string>, 4> lists;  // blockers, suggestions, criticisms, themes
  std::vector<std::pair<std::string, double>> scores;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(at_ms, decision, time_to_decision_ms, fields, lists, scores);
  }
};

SavedReview Saved(const KeptReview& k) {
  SavedReview s{k.at_ms, k.decision, k.time_to_decision_ms, {}, {}, {}};
  size_t i = 0;
  for (std::string_view f : {k.id, k.reviewer, k.server_type, k.work_type, k.stage, k.reason}) {
    s.fields[i++] = std::string(f);
  }
  i = 0;
  for (const auto* list : {&k.blockers, &k.suggestions, &k.criticisms, &k.themes}) {
    s.lists[i++].assign(list->begin(), list->end());
  }
  for (const auto& [dimension, score] : k.scores) s.scores.emplace_back(dimension, score);
  return s;
}

// The KeptReview of `s`: views of s's strings, then of its own copies (Own).
std::shared_ptr<const KeptReview> Restored(const SavedReview& s) {
  auto k = std::make_shared<KeptReview>();
  k->at_ms = s.at_ms;
  k->decision = s.decision;
  k->time_to_decision_ms = s.time_to_decision_ms;
  size_t i = 0;
  for (std::string_view* f :
       {&k->id, &k->reviewer, &k->server_type, &k->work_type, &k->stage, &k->reason}) {
    *f = s.fields[i++];
  }
  i = 0;
  for (auto* list : {&k->blockers, &k->suggestions, &k->criticisms, &k->themes}) {
    list->assign(s.lists[i].begin(), s.lists[i].end());
    ++i;
  }
  for (const auto& [dimension, score] : s.scores) k->scores.emplace_back(dimension, score);
  Own(k.get());
  return k;
}

}  // namespace

template <class Archive>
void serialize(Archive& ar, ThemeTally& t) {
  ar(t.positive, t.negative, t.positive_score_sum, t.positive_scored);
}

template <class Archive>
void serialize(Archive& ar, DimensionTally& t) {
  ar(t.n, t.sum);
}

template <class Archive>
void serialize(Archive& ar, LevelChange& c) {
  ar(c.task_type, c.from, c.to, c.at_ms);
}

template <class Archive>
void RecentReviews::serialize(Archive& ar) {
  using Indexes = std::vector<uint32_t>;
  // The kept reviews, each once, numbered in the order the rings below first name them.
  std::vector<SavedReview> table;
  std::vector<std::shared_ptr<const KeptReview>> loaded;
  std::unordered_map<const KeptReview*, uint32_t> numbers;
  std::vector<std::pair<std::string, Ring*>> servers;  // by_server_ in key order
  if constexpr (!state::kLoading<Archive>) {
    for (auto& [name, ring] : by_server_) servers.emplace_back(name, &ring);
    std::sort(servers.begin(), servers.end());
    auto number = [&](const Ring& ring) {
      for (const auto& k : ring) {
        if (numbers.emplace(k.get(), static_cast<uint32_t>(table.size())).second) {
          table.push_back(Saved(*k));
        }
      }
    };
    for (const auto& [day, digest] : days_) number(digest.kept);
    number(newest_);
    for (const auto& [name, ring] : servers) number(*ring);
  }
  ar(table);
  if constexpr (state::kLoading<Archive>) {
    loaded.reserve(table.size());
    for (const SavedReview& s : table) loaded.push_back(Restored(s));
  }
  // A ring as the numbers of its reviews.
  auto ring = [&](Ring& r) {
    Indexes indexes;
    if constexpr (!state::kLoading<Archive>) {
      for (const auto& k : r) indexes.push_back(numbers.at(k.get()));
    }
    ar(indexes);
    if constexpr (state::kLoading<Archive>) {
      r.clear();
      for (uint32_t i : indexes) {
        state::Require(i < loaded.size(), "a kept review's number");
        r.push_back(loaded[i]);
      }
    }
  };

  cereal::size_type n = days_.size();
  ar(cereal::make_size_tag(n));
  auto day_it = days_.begin();
  for (cereal::size_type i = 0; i < n; ++i) {
    int64_t day = 0;
    if constexpr (!state::kLoading<Archive>) day = (day_it++)->first;
    ar(day);
    DayDigest& d = days_[day];
    ar(d.day, d.reviews, d.approved, d.rejected, d.needs_work, d.deferred, d.review_mean_sum,
       d.scored_reviews, d.dimensions, d.themes);
    ring(d.kept);
  }
  if constexpr (state::kLoading<Archive>) state::Require(days_.size() == n, "a day saved twice");
  ring(newest_);
  n = servers.size();
  ar(cereal::make_size_tag(n));
  for (cereal::size_type i = 0; i < n; ++i) {
    std::string name;
    if constexpr (!state::kLoading<Archive>) name = servers[i].first;
    ar(name);
    ring(by_server_[name]);
  }
  if constexpr (state::kLoading<Archive>) {
    state::Require(by_server_.size() == n, "a server type saved twice");
    last_day_ = nullptr;
  }
  ar(state::SortedMap(levels_), level_changes_);
}

KZ_STATE_INSTANTIATE(RecentReviews);

}  // namespace kaizen::learn
