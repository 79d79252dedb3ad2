#include "learn/reviews/review_queue.h"

#include <gtest/gtest.h>

#include <string>

#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

const int64_t kDay1 = model::DaysFromCivil(2025, 7, 10) * model::kMsPerDay;

class ReviewQueueTest : public ::testing::Test {
 protected:
  ReviewQueue queue_;
  AutonomyTracker autonomy_{AutonomyConfig{}};
  int64_t at_ = kDay1;

  void Work(std::string_view id, std::string_view version, std::string_view server,
            std::string_view priority = "") {
    model::WorkView w;
    w.at_ms = at_++;
    w.event_id = "ev";
    w.artifact_id = id;
    w.version = version;
    w.type = "mcp-server";
    w.server_type = server;
    w.priority = priority;
    w.summary = "s";
    queue_.AddWork(w);
  }
  // Version v1 of `id`, asking for `n` reviewers (requiredReviews).
  void WorkNeedingReviews(std::string_view id, int64_t n) {
    model::WorkView w;
    w.at_ms = at_++;
    w.artifact_id = id;
    w.version = "v1";
    w.required_reviews = n;
    queue_.AddWork(w);
  }
  void Review(std::string_view id, std::string_view version, model::Decision d) {
    model::ReviewView r;
    r.at_ms = at_++;
    r.work.artifact_id = id;
    r.work.version = version;
    r.decision = d;
    queue_.AddReview(r);
  }
  // `n` decided reviews of a task type: 'A' approved, 'R' rejected, slow enough never to be
  // auto-approved.
  void History(std::string_view task, std::string_view pattern) {
    for (char c : pattern) {
      model::ReviewView r;
      r.at_ms = at_++;
      r.task_type = task;
      r.time_to_decision_ms = 200'000;
      r.decision = c == 'A' ? model::Decision::kApproved : model::Decision::kRejected;
      autonomy_.Add(r);
    }
  }
  std::vector<std::string> Order(std::string_view time_of_day = "morning",
                                 std::vector<std::string> best = {}) {
    std::vector<std::string> ids;
    for (const RankedItem& r : OrderQueue(queue_, autonomy_, {time_of_day, std::move(best)})) {
      ids.push_back(std::string(r.item->artifact_id) + "@" + std::string(r.item->version));
    }
    return ids;
  }
};

// The registry keeps no copy of a work event's id, path and session: a pending item holds its own,
// so they outlive the buffers the event was read from, and copies of the item share them.
TEST_F(ReviewQueueTest, APendingItemKeepsItsOwnEventIdPathAndSession) {
  std::string id = "0197c348-8800-7c04-bedd-1d85e9fa686b", path = "src/a.ts", session = "run-7",
              commit = "abc1234..def5678", diff = "--- a/src/a.ts\n+++ b/src/a.ts\n";
  model::WorkView w;
  w.event_id = id;
  w.artifact_id = "art";
  w.version = "v1";
  w.path = path;
  w.session_id = session;
  w.commit = commit;
  w.diff = diff;
  queue_.AddWork(w);
  for (std::string* s : {&id, &path, &session, &commit, &diff}) s->assign(s->size(), 'x');
  ASSERT_EQ(queue_.size(), 1u);
  const QueueItem copy = queue_.pending().begin()->second;
  for (const QueueItem* item : {&queue_.pending().begin()->second, &copy}) {
    EXPECT_EQ(item->event_id, "0197c348-8800-7c04-bedd-1d85e9fa686b");
    EXPECT_EQ(item->path, "src/a.ts");
    EXPECT_EQ(item->session_id, "run-7");
    EXPECT_EQ(item->commit, "abc1234..def5678");
    EXPECT_EQ(item->diff, "--- a/src/a.ts\n+++ b/src/a.ts\n");
  }
}

TEST_F(ReviewQueueTest, ADecisionTakesTheWorkOutAndADeferralKeepsItCounted) {
  Work("a", "v1", "stripe");
  Work("b", "v1", "stripe");
  Work("c", "v1", "stripe");
  Review("a", "v1", model::Decision::kApproved);
  Review("b", "v1", model::Decision::kDeferred);
  Review("b", "v1", model::Decision::kDeferred);
  ASSERT_EQ(queue_.size(), 2u);
  EXPECT_EQ(queue_.pending().at({"b", "v1"}).deferrals, 2);
  Review("b", "v1", model::Decision::kRejected);
  Review("zzz", "v1", model::Decision::kRejected);  // a review of unknown work changes nothing
  EXPECT_EQ(Order(), (std::vector<std::string>{"c@v1"}));
}

// A reviewer must not judge a version the agent has already replaced: the newer version takes
// the older one's place, and no decision is recorded for the older one.
TEST_F(ReviewQueueTest, ANewerVersionSupersedesTheOlderOneUndecided) {
  Work("a", "v1", "stripe");
  Work("b", "v1", "stripe");
  Work("a", "v2", "stripe");
  EXPECT_EQ(Order(), (std::vector<std::string>{"b@v1", "a@v2"}));
  EXPECT_EQ(queue_.pending().at({"a", "v2"}).superseded, 1);
  Work("a", "v3", "stripe");
  EXPECT_EQ(Order(), (std::vector<std::string>{"b@v1", "a@v3"}));
  const std::vector<RankedItem> ranked = OrderQueue(queue_, autonomy_, {"morning", {}});
  EXPECT_NE(ranked[1].why.find("replaces 1 older version"), std::string::npos) << ranked[1].why;
}

// kaizen check records its prediction without asking for a review: the version joins no queue,
// yet the agent has changed the work, so an older version waiting there leaves it.
TEST_F(ReviewQueueTest, APredictionOnlyJoinsNoQueueButSupersedesOlderVersions) {
  Work("a", "v1", "stripe");
  model::WorkView w;
  w.at_ms = at_++;
  w.artifact_id = "a";
  w.version = "v2";
  w.for_review = false;
  queue_.AddWork(w);
  w.artifact_id = "fresh";
  queue_.AddWork(w);
  EXPECT_TRUE(Order().empty());
  // kaizen check --submit of the same bytes later: an admin submit puts it in the order.
  model::AdminView submit;
  submit.action = "submit";
  submit.work_id = "a";
  submit.work_version = "v2";
  queue_.AddAdmin(submit);
  EXPECT_EQ(Order(), (std::vector<std::string>{"a@v2"}));
}

TEST_F(ReviewQueueTest, ADismissalTakesTheNamedVersionOutAndNothingElse) {
  Work("a", "v1", "stripe");
  Work("b", "v1", "stripe");
  model::AdminView dismiss;
  dismiss.action = "dismiss";
  dismiss.work_id = "a";
  dismiss.work_version = "v9";  // not pending: nothing happens
  queue_.AddAdmin(dismiss);
  EXPECT_EQ(queue_.size(), 2u);
  dismiss.work_version = "v1";
  queue_.AddAdmin(dismiss);
  EXPECT_EQ(Order(), (std::vector<std::string>{"b@v1"}));
  dismiss.work_id = "b";
  dismiss.work_version = "";      // every version
  dismiss.action = "rule_audit";  // another admin action changes nothing
  queue_.AddAdmin(dismiss);
  EXPECT_EQ(queue_.size(), 1u);
  dismiss.action = "dismiss";
  queue_.AddAdmin(dismiss);
  EXPECT_EQ(queue_.size(), 0u);
}

// A work event may ask for several reviewers (issue 30): it stays until that many distinct people
// decided it, out of the queue of those who did.
TEST_F(ReviewQueueTest, WorkAskingForTwoReviewsStaysUntilTwoPeopleDecidedIt) {
  WorkNeedingReviews("a", 2);
  auto review = [&](std::string_view who, model::Decision d) {
    model::ReviewView r;
    r.at_ms = at_++;
    r.reviewer = who;
    r.work.artifact_id = "a";
    r.work.version = "v1";
    r.decision = d;
    queue_.AddReview(r);
  };
  auto mine = [&](std::string_view who) {
    return OrderQueue(queue_, autonomy_, {"morning", {}, who}).size();
  };
  review("ana", model::Decision::kDeferred);  // not a decision
  review("ana", model::Decision::kApproved);
  review("ana", model::Decision::kRejected);  // ana again: still one reviewer
  ASSERT_EQ(queue_.size(), 1u);
  EXPECT_EQ(queue_.pending().begin()->second.reviewed_by, std::vector<std::string>{"ana"});
  EXPECT_EQ(mine("ana"), 0u);
  EXPECT_EQ(mine("bo"), 1u);
  EXPECT_EQ(mine(""), 1u);  // the whole queue
  EXPECT_NE(OrderQueue(queue_, autonomy_, {"morning", {}, "bo"})[0].why.find("review 2 of 2"),
            std::string::npos);
  review("bo", model::Decision::kRejected);
  EXPECT_EQ(queue_.size(), 0u);
}

// A reservation (issue 30: "reserves an item while it is open; the reservation expires") keeps an
// item out of other reviewers' queues until it expires, is released, or its holder decides.
TEST_F(ReviewQueueTest, AReservedItemLeavesOthersQueuesUntilItExpiresOrIsReleased) {
  Work("a", "v1", "stripe");
  Work("b", "v1", "stripe");
  auto admin = [&](std::string_view action, std::string_view who, int64_t at, int64_t minutes) {
    model::AdminView v;
    v.at_ms = at;
    v.action = action;
    v.work_id = "a";
    v.reviewer = who;
    v.minutes = minutes;
    queue_.AddAdmin(v);
  };
  auto queue_of = [&](std::string_view who, int64_t now) {
    std::vector<std::string> ids;
    for (const RankedItem& r : OrderQueue(queue_, autonomy_, {"morning", {}, who, now})) {
      ids.push_back(std::string(r.item->artifact_id));
    }
    return ids;
  };
  const int64_t t0 = kDay1 + 3'600'000;
  admin("reserve", "ana", t0, 10);
  EXPECT_EQ(queue_of("bo", t0 + 60'000), std::vector<std::string>{"b"});
  // Hers comes first in her own queue, though b is as old.
  EXPECT_EQ(queue_of("ana", t0 + 60'000), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(queue_of("", t0 + 60'000).size(), 2u);  // the whole queue shows it, as reserved
  EXPECT_EQ(queue_of("bo", t0 + 10 * 60'000 + 1), (std::vector<std::string>{"a", "b"}));  // expired
  admin("reserve", "ana", t0 + 20 * 60'000, 0);  // the default: 30 minutes
  EXPECT_EQ(queue_of("bo", t0 + 49 * 60'000), std::vector<std::string>{"b"});
  admin("release", "ana", t0 + 21 * 60'000, 0);
  EXPECT_EQ(queue_of("bo", t0 + 22 * 60'000), (std::vector<std::string>{"a", "b"}));
}

TEST_F(ReviewQueueTest, AHoldersDeferralOrDecisionEndsTheirReservation) {
  WorkNeedingReviews("a", 2);
  model::AdminView reserve;
  reserve.at_ms = at_;
  reserve.action = "reserve";
  reserve.work_id = "a";
  reserve.reviewer = "ana";
  queue_.AddAdmin(reserve);
  // Two reviews needed, one held: a third person may still take the other.
  EXPECT_EQ(OrderQueue(queue_, autonomy_, {"morning", {}, "bo", at_ + 1}).size(), 1u);
  model::ReviewView r;
  r.at_ms = at_ + 2;
  r.reviewer = "ana";
  r.work.artifact_id = "a";
  r.work.version = "v1";
  r.decision = model::Decision::kDeferred;  // put off: back in the queue for everyone
  queue_.AddReview(r);
  EXPECT_TRUE(queue_.pending().begin()->second.reservations.empty());
  queue_.AddAdmin(reserve);
  r.decision = model::Decision::kApproved;
  queue_.AddReview(r);
  EXPECT_TRUE(queue_.pending().begin()->second.reservations.empty());
}

TEST_F(ReviewQueueTest, AReviewWithoutADecisionStillTakesTheWorkOut) {
  Work("a", "v1", "stripe");
  Review("a", "v1", model::Decision::kNone);  // scores or notes only: someone looked at it
  EXPECT_EQ(queue_.size(), 0u);
}

TEST_F(ReviewQueueTest, UrgentComesFirstThenOldest) {
  Work("old", "v1", "stripe", "");
  Work("low", "v1", "stripe", "low");
  Work("urgent", "v1", "stripe", "urgent");
  Work("high", "v1", "stripe", "high");
  Work("newer", "v1", "stripe", "normal");
  EXPECT_EQ(Order(),
            (std::vector<std::string>{"urgent@v1", "high@v1", "old@v1", "newer@v1", "low@v1"}));
}

TEST_F(ReviewQueueTest, ALowerAutonomyLevelComesFirstAtTheSamePriority) {
  History("shopify", std::string(12, 'A'));  // level 1
  ASSERT_EQ(autonomy_.Level("shopify"), 1);
  Work("s", "v1", "shopify");  // older
  Work("n", "v1", "notion");   // never reviewed: level 0
  const std::vector<RankedItem> ranked = OrderQueue(queue_, autonomy_, {"morning", {}});
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].item->artifact_id, "n");
  EXPECT_EQ(ranked[0].level, 0);
  EXPECT_EQ(ranked[0].task_class, "escalate");
  // The level-1 item is only sampled for review (80%): reviewRequired says which way it fell.
  EXPECT_EQ(ranked[1].review_required, autonomy_.ShouldReview("s", 1));
}

TEST_F(ReviewQueueTest, DeepWorkFirstInABestWindowQuickWorkFirstOutsideOne) {
  History("shopify", "AAAAAA");  // 6 approvals: quick review, still level 0
  History("stripe", "RRRRRR");   // all rejected: deep review
  Work("quick", "v1", "shopify");
  Work("deep", "v1", "stripe");
  EXPECT_EQ(Order("morning", {"morning"}), (std::vector<std::string>{"deep@v1", "quick@v1"}));
  EXPECT_EQ(Order("night", {"morning"}), (std::vector<std::string>{"quick@v1", "deep@v1"}));
}

TEST_F(ReviewQueueTest, DeferredWorkGoesAfterUndeferredWork) {
  Work("a", "v1", "stripe");
  Work("b", "v1", "stripe");
  Review("a", "v1", model::Decision::kDeferred);
  EXPECT_EQ(Order(), (std::vector<std::string>{"b@v1", "a@v1"}));
}

TEST_F(ReviewQueueTest, TheJsonCarriesTheProductTheLevelAndTheReasons) {
  Work("a", "v2", "stripe", "urgent");
  const std::vector<RankedItem> ranked = OrderQueue(queue_, autonomy_, {"morning", {"morning"}});
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  WriteJson(w, ranked.at(0), {"v1", "v2"}, kDay1 + 3 * 3600 * 1000);
  const std::string json = b.GetString();
  EXPECT_NE(json.find(R"("ageSeconds":10800)"), std::string::npos) << json;  // recorded 3 h before
  EXPECT_NE(json.find(R"("workProduct":{"type":"mcp-server","id":"a","version":"v2")"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("priority":"urgent")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("autonomy":{"level":0,"reviewRate":1.0,"class":"escalate"})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("versions":["v1","v2"])"), std::string::npos) << json;
  EXPECT_NE(json.find("urgent priority"), std::string::npos) << json;
  EXPECT_NE(json.find("now is one of your best review windows"), std::string::npos) << json;
}

}  // namespace
}  // namespace kaizen::learn
