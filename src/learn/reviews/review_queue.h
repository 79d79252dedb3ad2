// The review queue: `work` submitted for review that no reviewer has decided yet, in the order a
// reviewer should take it (issue 6: priority, autonomy level, the reviewer's best review windows).
// Pure: folded in log order; ordered for a given moment by the caller's view of the reviewer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json_writer.h"
#include "learn/delegation/autonomy.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

// Views of the work event's strings as the Learner's WorkRegistry keeps them (ResolveInLogOrder
// points a work event at them), valid as long as the Learner, except the five the registry does
// not keep (event id, path, session, commit, diff), which the item holds itself while it is
// pending. Copy what must outlive a read of the Learner.
struct QueueItem {
  std::string_view event_id, artifact_id, version, type, path, summary, server_type, stage,
      session_id, model, priority, commit, diff;
  std::shared_ptr<const char[]> own;  // event_id, path, session_id, commit, diff; shared by copies
  int64_t at_ms = 0;
  double confidence = 0;
  std::optional<double> score_prediction;
  int64_t iteration_count = 0;
  bool experimental = false;
  int64_t deferrals = 0;   // `deferred` decisions so far: the item stays, later in the order
  int64_t superseded = 0;  // older versions of the artifact this one took out of the queue
  // false: a prediction only (kaizen check without --submit), kept out of the order until an
  // admin `submit` of the version; reviewable by id meanwhile.
  bool submitted = true;
  int64_t required_reviews = 1;          // requiredReviews: distinct reviewers who must decide
  std::vector<std::string> reviewed_by;  // who decided it so far (while fewer than required)
  // Who has it open (an admin `reserve`), until when; expired ones are kept until the reviewer
  // decides or releases it, and ignored from their end on.
  struct Reservation {
    std::string reviewer;
    int64_t until_ms = 0;
  };
  std::vector<Reservation> reservations;
  // compareWith: the version this one is an alternative to (seed 000 §6.4), reviewed as an A/B
  // comparison of the two; empty for most.
  std::string compare_with;
  // Reservations of others than `reviewer` that hold at `now_ms`.
  int64_t HeldByOthers(std::string_view reviewer, int64_t now_ms) const;
  bool HeldBy(std::string_view reviewer, int64_t now_ms) const;
};

// How long a reservation holds when the reserve event does not say (seed 000 is silent: half an
// hour is a long review, and an abandoned item comes back within one).
inline constexpr int64_t kDefaultReservationMinutes = 30;

class ReviewQueue {
 public:
  // A recorded work product joins the queue (the same (id, version) again replaces it); a
  // prediction only (forReview false) is kept unsubmitted, out of the order. Either way its older
  // pending versions leave the queue undecided: a reviewer would judge work the agent has already
  // changed.
  // REQUIRES: `work`'s views but the event id, path, session, commit and diff outlive the queue
  // (the registry's, in a Learner).
  void AddWork(const model::WorkView& work);
  // A review of a product: any decision but `deferred` (or a review with scores or text but no
  // decision: someone looked at it) takes it out once requiredReviews distinct reviewers gave
  // one (a review without reviewerId counts as one more reviewer); `deferred` keeps it and counts
  // the deferral.
  void AddReview(const model::ReviewView& review);
  // An `admin` dismiss takes the named version (or every version) out, undecided: no decision is
  // recorded, so approval, autonomy, regressions and KPIs never see it. An `admin` submit puts a
  // version recorded as a prediction only into the order (kaizen check --submit of bytes checked
  // before). `reserve` holds the version (or every pending version) for its reviewerId for
  // `minutes` (kDefaultReservationMinutes) from the event's time; `release` lets it go (so does
  // the reviewer's decision).
  void AddAdmin(const model::AdminView& admin);

  // By (artifact id, version): one artifact's versions are adjacent, from {id, ""}.
  using Key = std::pair<std::string_view, std::string_view>;
  size_t size() const { return pending_.size(); }  // submitted or not
  const std::map<Key, QueueItem>& pending() const { return pending_; }

 private:
  // Each item with its strings; a loaded item keeps them all in its own buffer (`own`), not in the
  // work registry, and its key views them there.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  std::map<Key, QueueItem> pending_;  // keys are the items' own views
};

// Who is reviewing, and when: what the order adapts to.
struct QueueMoment {
  std::string_view time_of_day;           // now's window: morning | afternoon | evening | night
  std::vector<std::string> best_windows;  // the reviewer's (else everyone's) best windows
  // Whose queue: items they already decided are not theirs to review, nor items others hold
  // reservations on for every review still needed.
  std::string_view reviewer;
  int64_t now_ms = 0;  // when reservations are judged
};

struct RankedItem {
  const QueueItem* item = nullptr;
  int level = 0;                // the autonomy level of the item's task type
  std::string task_class;       // escalate | auto-approve | quick | standard | deep
  double review_rate = 1;       // of that level
  bool review_required = true;  // seed 000 §6.3 sampling: false when the level lets it skip
  std::string why;              // the reasons for its place, for a person
};

// The order (our choice; the issue names the three inputs, not how to weigh them):
//  1. items the autonomy sampling says need a human (§6.3) before those it would let through;
//  2. priority: urgent, high, normal (also when absent), low;
//  3. autonomy level, lowest first: a task type still under full review has the most to learn;
//  4. fit with the moment (seed 000 §3.5 "best review windows"): in one of the reviewer's best
//     windows deep items come first, outside them quick ones;
//  5. fewer deferrals first, then the oldest first; id and version break ties (stable bytes).
// An item the reviewer holds a reservation on comes before all of these: it is open on their
// screen.
std::vector<RankedItem> OrderQueue(const ReviewQueue& queue, const AutonomyTracker& autonomy,
                                   const QueueMoment& moment);

// One ranked item as the queue's JSON object; `versions`: every recorded version of its artifact;
// `now_ms`: the moment its age is counted to.
void WriteJson(base::JsonWriter& w, const RankedItem& ranked,
               const std::vector<std::string_view>& versions, int64_t now_ms);

}  // namespace kaizen::learn
