// The history's `reward` (seed 001) and `admin` lines: single lines on schedules of their own,
// with no episode behind them, unlike corrections and loops (gen_corrections.cc).
#include "sim/gen_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kaizen::sim::gen {

using model::EventField;

// ---- rewards ----

void Generator::EmitReward(int64_t t) {
  const double p = Progress(t);
  enum { kCi, kCoverage, kMerge, kSatisfaction, kIterations, kTime, kApproach, kTurnaround };
  int type = rng_.Weighted(std::array<double, 8>{0.32, 0.18, 0.18, 0.14, 0.06, 0.05, 0.04, 0.03});
  const size_t work_n = std::min<size_t>(recent_work_count_, recent_work_.size());
  const size_t approved_n = std::min<size_t>(approved_count_, approved_.size());
  const size_t session_n = std::min<size_t>(recent_session_count_, recent_sessions_.size());
  if (type == kMerge && approved_n == 0) type = kCi;
  if (type == kSatisfaction && session_n == 0) type = kCi;
  if ((type == kCi || type == kCoverage) && work_n == 0) type = kTurnaround;
  Begin("reward", t);
  w_.Key(EventField::signal_id).BeginStr();
  w_.Raw("sig-");
  w_.RawHex(rng_.Next(), 12);
  w_.EndStr();
  const Item* task = nullptr;
  if (type == kMerge) {
    task = &items_[approved_[rng_.Below(static_cast<uint32_t>(approved_n))]];
  } else if (work_n > 0 && type != kSatisfaction) {
    task = &items_[recent_work_[rng_.Below(static_cast<uint32_t>(work_n))]];
  }
  if (task != nullptr && type != kApproach && type != kTurnaround) {
    w_.Key(EventField::commit_hash).BeginStr();
    w_.RawHex(rng_.Next(), 12);
    w_.EndStr();
  }
  if (task != nullptr) {
    w_.Key(EventField::task_id);
    ProductId(*task);
  }
  const double quality = task != nullptr ? ExpectedScore(*task) : 6.0;
  switch (type) {
    case kCi: {
      const bool pass = rng_.Chance(1.0 / (1.0 + std::exp(-1.3 * (quality - 5.3))));
      w_.Key(EventField::signal_type).Lit("ci_result");
      if (rng_.Chance(0.25)) w_.Key(EventField::signal_value).Int(pass ? 1 : 0);
      if (rng_.Chance(0.15)) {
        w_.Key(EventField::raw_value).Lit(pass ? "passed" : "failed");
      } else {
        w_.Key(EventField::raw_value).Lit(pass ? "pass" : "fail");
      }
      w_.Key(EventField::source).Lit("automatic");
      break;
    }
    case kCoverage: {
      const double delta = Clamp(0.8 * (quality - 6.0) + 1.5 * p + 2.5 * rng_.Normal(), -100, 100);
      w_.Key(EventField::signal_type).Lit("coverage_delta");
      w_.Key(EventField::raw_value).Num(delta, 1);
      w_.Key(EventField::source).Lit("automatic");
      break;
    }
    case kMerge: {
      const double u = rng_.U();
      const double revert = quality < 6.5 ? 0.12 : 0.03;
      w_.Key(EventField::signal_type).Lit("merge_outcome");
      w_.Key(EventField::raw_value)
          .Lit(u < revert         ? "reverted"
               : u < revert + 0.1 ? "closed"
                                  : "merged");
      w_.Key(EventField::source).Lit("automatic");
      w_.Key(EventField::delay_days).Int(std::max<int64_t>(0, (t - task->created) / kDay));
      break;
    }
    case kSatisfaction: {
      const Session& s = sessions_[recent_sessions_[rng_.Below(static_cast<uint32_t>(session_n))]];
      const int rating = static_cast<int>(Clamp(Round(2.5 + 1.8 * p + 0.8 * rng_.Normal()), 1, 5));
      w_.Key(EventField::session_id).BeginStr();
      w_.Raw("sess-");
      w_.Raw(Reviewers()[s.reviewer].id);
      w_.Raw("-");
      w_.RawNum(s.date, 8);
      w_.Raw("-");
      w_.RawNum(s.number, 5);
      w_.EndStr();
      w_.Key(EventField::signal_type).Lit("satisfaction");
      if (rng_.Chance(0.3)) {
        w_.Key(EventField::signal_value).Num((rating - 1) / 4.0, 2);
      } else {
        w_.Key(EventField::raw_value).Int(rating);
      }
      w_.Key(EventField::source).Lit("human");
      break;
    }
    case kIterations:
      w_.Key(EventField::signal_type).Lit("iteration_count");
      w_.Key(EventField::raw_value)
          .Int(1 + static_cast<int>(Clamp(Round(2.5 - 1.5 * p + rng_.Normal()), 0, 6)));
      w_.Key(EventField::source).Lit("agent");
      break;
    case kTime: {
      const double baseline = 1800;
      w_.Key(EventField::signal_type).Lit("time_efficiency");
      w_.Key(EventField::raw_value)
          .Int(Round(Clamp(rng_.LogNormal(2400 - 900 * p, 0.4), 60, 20000)));
      w_.Key(EventField::baseline_seconds).Int(static_cast<int64_t>(baseline));
      w_.Key(EventField::source).Lit("automatic");
      break;
    }
    case kApproach:
      w_.Key(EventField::signal_type).Lit("approach_correctness");
      w_.Key(EventField::raw_value).Lit(rng_.Chance(0.55 + 0.3 * p) ? "yes" : "no");
      w_.Key(EventField::source).Lit("human");
      w_.Key(EventField::confidence).Num(0.6 + 0.4 * rng_.U(), 2);
      break;
    default:
      // No normalization rule for this one: the signal is given already normalized.
      w_.Key(EventField::signal_type).Lit("review_turnaround");
      w_.Key(EventField::signal_value).Num(Clamp(0.45 + 0.3 * p + 0.12 * rng_.Normal(), 0, 1), 2);
      w_.Key(EventField::source).Lit("automatic");
      w_.Key(EventField::confidence).Num(0.8, 1);
      break;
  }
  End();
}

// ---- admin ----

void Generator::EmitAdmin(int64_t t) {
  Begin("admin", t);
  if (rng_.Chance(0.75)) {
    const int rule = static_cast<int>(rng_.Below(kRules.size()));
    const bool retire = rng_.Chance(kRuleRetire[rule]);
    w_.Key(EventField::action).Lit("rule_audit");
    w_.Key(EventField::rule_id).Lit(kRules[rule]);
    w_.Key(EventField::verdict).Lit(retire ? "retire" : "confirm");
    w_.Key(EventField::reviewerId).Lit(Reviewers()[rng_.Below(4)].id);
    w_.Key(EventField::note)
        .Lit(retire ? kAuditNotes[1 + 2 * rng_.Below(2)] : kAuditNotes[2 * rng_.Below(2)]);
  } else {
    const bool on = rng_.Chance(0.85);
    w_.Key(EventField::action).Lit("consent");
    // A user who turns learning off leaves nothing after it (ingest would skip it, seed 004
    // "If OFF, corrections not logged"): the ones who opt out here are former users, so every
    // generated event is still stored.
    const std::string_view user = rng_.Pick(kUsers);
    w_.Key(EventField::user_id).Lit(on ? std::string(user) : "former-" + std::string(user));
    w_.Key(EventField::learning_mode).Bool(on);
    w_.Key(EventField::note)
        .Lit(on ? "Opted in from settings: Learning Mode ON" : "Turned Learning Mode OFF");
  }
  End();
}

}  // namespace kaizen::sim::gen
