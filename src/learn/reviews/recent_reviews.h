// What the memory files and context retrieval need from the review history (seed 000 §5.2,
// §5.3), folded so that no query scans the whole log:
//   - per UTC day, a digest: decision counts, per-dimension score histograms, per-theme signals,
//     and the newest few reviews of that day kept whole for quoting (0-7 days "referenced
//     directly", 8-30 days "weekly aggregates", 31-90 days "patterns only");
//   - per server type, a ring of its newest reviews, for "the last 5 similar tasks";
//   - the autonomy level changes (promotions and regressions), for the improvement log.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "learn/config_field.h"
#include "learn/reviews/quality_index.h"
#include "learn/reviews/review_themes.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

// Memory-file and context thresholds (`memory.*` in learning.json).
struct MemoryConfig {
  double budget_bytes = 8192;  // per memory file: about 2k tokens of a context window (§5.2)
  double recent_days = 7;      // §5.2 "0-7 days: referenced directly"
  double weekly_days = 30;     // §5.2 "8-30 days: summarized in weekly aggregate"
  double pattern_days = 90;    // §5.2 "31-90 days: compressed to patterns only"
  double quoted_per_day = 20;  // reviews kept whole per UTC day, for quoting
  double top_themes = 10;      // §5.1 "Recurring Themes (Top 10)"
  // §5.1 "consistently rejects / praises": the share of a theme's signals on one side, with at
  // least min_signals of them (§9.2 "Don't form a rule until ... 3+ times").
  double consistent_share = 0.8;
  double min_signals = 3;
  double fast_approval_rate = 0.8;  // §3.4 "Quick review: Approval rate >80%"
  double min_reviews = 5;           // §9.3: no per-reviewer conclusion from fewer than 5 reviews
  double similar_limit = 5;         // §5.3 "last 5 similar tasks"
  double min_similarity = 0.7;      // §5.3 minSimilarity
  double similar_lookback = 64;     // newest reviews kept per server type for similarity
  double context_budget_tokens = 2000;  // `kaizen context` without --budget

  ConfigFields Fields();
};

// One review as the memory files quote it. Strings are raw reviewer text, capped in length
// (kKeptBytes each): quote them (render::QuoteReviewerText) before they reach a file.
// RecentReviews fills the views with copies in `text`, one buffer per review: every review is
// kept at first (it is the newest), so filling is on the fold's critical path, and a recycled
// copy refills its buffer without allocating. Not copyable: the views would point into the
// original. A hand-made one (tests) may view anything that outlives it.
struct KeptReview {
  static constexpr size_t kKeptBytes = 400;
  static constexpr size_t kKeptItems = 3;  // blockers, suggestions, criticisms kept

  KeptReview() = default;
  KeptReview(const KeptReview&) = delete;
  KeptReview& operator=(const KeptReview&) = delete;

  std::string_view id;
  int64_t at_ms = 0;
  std::string_view reviewer, server_type, work_type, stage;
  model::Decision decision = model::Decision::kNone;
  std::string_view reason;
  std::vector<std::string_view> blockers, suggestions, criticisms;  // criticism annotation texts
  std::vector<std::string_view> themes;                             // distinct, sorted
  std::vector<std::pair<std::string_view, double>> scores;          // dimension, score (log order)
  double time_to_decision_ms = 0;
  std::string text;  // what the views above view, when RecentReviews filled them
};

// approved | rejected | needs-work | deferred | none
std::string_view DecisionWord(model::Decision d);

// Signals on one theme, polar as ReviewThemes() reads them; each theme once per side per review.
struct ThemeTally {
  int64_t positive = 0, negative = 0;
  double positive_score_sum = 0;  // mean score of the positive reviews that had scores
  int64_t positive_scored = 0;
};

struct DimensionTally {
  static constexpr int kBuckets = 10;  // rounded score 1..10
  std::array<int64_t, kBuckets> n{};
  std::array<double, kBuckets> sum{};  // exact scores, for the top-quartile mean
};

struct DayDigest {
  int64_t day = 0;  // UTC day number
  int64_t reviews = 0, approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  double review_mean_sum = 0;  // sum over reviews with scores of their mean score
  int64_t scored_reviews = 0;
  // Indexed like model::QualityDimensions().
  std::array<DimensionTally, kQualityDimensionCount> dimensions{};
  std::map<std::string, ThemeTally, std::less<>> themes;
  std::deque<std::shared_ptr<const KeptReview>> kept;  // newest quoted_per_day, log order
};

struct LevelChange {
  std::string task_type;
  int from = 0, to = 0;
  int64_t at_ms = 0;
};

// §5.3 "minSimilarity: 0.7". The seed does not define the measure; kaizen's is
//   0.4 x [same server type] + 0.2 x [same work type] + 0.2 x [same stage]
//   + 0.2 x Jaccard(query dimensions, the review's scored dimensions),
// where a field the query leaves empty counts as matched. A review of another server type
// reaches at most 0.6, so at the default 0.7 only the same server type is similar.
struct SimilarityQuery {
  std::string server_type, work_type, stage;
  std::vector<std::string> dimensions;
};
double Similarity(const SimilarityQuery& query, const KeptReview& review);

struct SimilarReview {
  std::shared_ptr<const KeptReview> review;
  double similarity = 0;
};

class RecentReviews {
 public:
  explicit RecentReviews(const MemoryConfig& config);

  // Folds a review in log order; `themes` are ReviewThemes(review). `level_after` is the autonomy
  // level of its task type after the AutonomyTracker folded it (Learner passes
  // AutonomyTracker::Level). Amortized O(size of the review); allocates the kept copy.
  void Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes,
           int level_after);

  // Day digests by UTC day number.
  const std::map<int64_t, DayDigest>& days() const { return days_; }
  // Promotions and regressions, in log order.
  const std::vector<LevelChange>& level_changes() const { return level_changes_; }

  // §5.3 "last 5 similar": the newest reviews at or before now with Similarity >= min, newest
  // first, at most `limit`. Looks only at the newest similar_lookback reviews of the query's
  // server type (or of all reviews when the query has none, or when min <= 0.6 lets other
  // server types match): bounded work, whatever the history's size.
  std::vector<SimilarReview> Similar(const SimilarityQuery& query, int64_t now_ms, size_t limit,
                                     double min_similarity) const;

 private:
  using Ring = std::deque<std::shared_ptr<const KeptReview>>;
  // Appends `kept`, dropping the oldest beyond `limit` (to Retire).
  void Push(Ring& ring, const std::shared_ptr<const KeptReview>& kept, size_t limit);
  void Retire(std::shared_ptr<const KeptReview> kept);
  std::shared_ptr<KeptReview> Recycled();  // a retired copy nobody else holds, or a new one
  // Each kept review once (the rings share them) with its strings, the rings as its indexes, and
  // the digests; last_day_ is a cache of a days_ node (null finds it again), spares_ a pool of
  // retired copies and sides_ scratch space of one Add.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  MemoryConfig config_;
  std::map<int64_t, DayDigest> days_;
  DayDigest* last_day_ = nullptr;  // logs run in day order
  Ring newest_;
  std::unordered_map<std::string, Ring, StringHash, std::equal_to<>> by_server_;
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> levels_;
  std::vector<LevelChange> level_changes_;
  std::vector<std::shared_ptr<KeptReview>> spares_;  // retired copies, reused by Add
  PolarThemes sides_;  // the current review's, kept so that Add allocates no vector
};

}  // namespace kaizen::learn
