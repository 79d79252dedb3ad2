#include "learn/reviews/agreement.h"

#include <algorithm>
#include <cmath>

#include "learn/reviews/quality_index.h"
#include "learn/state_archive.h"
#include "model/schema.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

constexpr std::string_view kDecisionNames[] = {"approved", "rejected", "needs-work"};

int8_t DecisionCode(model::Decision d) {
  switch (d) {
    case model::Decision::kApproved:
      return 0;
    case model::Decision::kRejected:
      return 1;
    case model::Decision::kNeedsWork:
      return 2;
    default:
      return -1;  // none or deferred: no judgement of the work
  }
}

uint64_t ItemKey(std::string_view id, std::string_view version) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  auto add = [&h](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  };
  add(id);
  h = (h ^ 0xffu) * 0x100000001b3ull;  // a byte no UTF-8 text holds: "a"+"bc" != "ab"+"c"
  add(version);
  return h;
}

// Sum over ordered pairs i != j of delta^2(v_i, v_j), for one set of values.
double PairSum(const std::vector<double>& v, bool interval) {
  const auto m = static_cast<double>(v.size());
  if (interval) {
    double sum = 0, squares = 0;
    for (double x : v) {
      sum += x;
      squares += x * x;
    }
    return 2 * (m * squares - sum * sum);  // sum_{i,j} (v_i - v_j)^2
  }
  std::map<double, double> counts;
  for (double x : v) ++counts[x];
  double same = 0;
  for (const auto& [_, c] : counts) same += c * c;
  return m * m - same;  // ordered pairs with different values
}

}  // namespace

std::optional<double> KrippendorffAlpha(const std::vector<std::vector<double>>& units,
                                        bool interval) {
  // Do = (1/n) sum_u (1/(m_u - 1)) sum_{i != j in u} delta^2; De = (1/(n(n-1))) sum over all
  // pairable values i != j of delta^2 (Krippendorff 2011, "Computing Krippendorff's Alpha").
  std::vector<double> all;
  double observed = 0;
  for (const std::vector<double>& u : units) {
    if (u.size() < 2) continue;
    observed += PairSum(u, interval) / static_cast<double>(u.size() - 1);
    all.insert(all.end(), u.begin(), u.end());
  }
  const auto n = static_cast<double>(all.size());
  if (n < 2) return std::nullopt;
  const double expected = PairSum(all, interval) / (n * (n - 1));
  if (expected <= 0) return std::nullopt;  // every value the same: agreement is not measurable
  return 1 - (observed / n) / expected;
}

uint32_t AgreementTracker::ReviewerIndex(std::string_view name) {
  auto it = reviewer_index_.find(name);
  if (it != reviewer_index_.end()) return it->second;
  const auto index = static_cast<uint32_t>(reviewers_.size());
  reviewers_.emplace_back(name);
  reviewer_index_.emplace(std::string(name), index);
  return index;
}

void AgreementTracker::Add(const model::ReviewView& r) {
  if (r.reviewer.empty() || r.work.artifact_id.empty()) return;
  Judgement j;
  j.decision = DecisionCode(r.decision);
  for (const model::ScoreView& s : r.scores) {
    const int q = QualityIndex(s);
    if (q < 0 || q >= static_cast<int>(j.centi.size())) continue;
    j.scored |= static_cast<uint16_t>(1u << q);
    j.centi[q] = static_cast<uint16_t>(std::lround(std::clamp(s.score, 0.0, 10.0) * 100));
  }
  if (j.decision == kNoDecision && j.scored == 0) return;  // nothing judged
  j.reviewer = ReviewerIndex(r.reviewer);
  j.at_ms = r.at_ms;
  const uint64_t key = ItemKey(r.work.artifact_id, r.work.version);
  auto [at, fresh] = index_.try_emplace(key, static_cast<uint32_t>(items_.size()));
  if (fresh) items_.emplace_back().key = key;
  Item& item = items_[at->second];
  auto same = std::find_if(item.judgements.begin(), item.judgements.end(),
                           [&](const Judgement& k) { return k.reviewer == j.reviewer; });
  if (same != item.judgements.end()) {
    *same = j;  // their newest judgement stands
  } else {
    item.judgements.push_back(j);
  }
  if (item.judgements.size() >= 2 && item.artifact_id.empty()) {
    item.artifact_id = std::string(r.work.artifact_id);
    item.version = std::string(r.work.version);
  }
}

AgreementResult AgreementTracker::Result() const {
  AgreementResult out;
  const auto& dims = model::QualityDimensions();
  std::vector<std::vector<double>> decision_units;
  std::vector<std::vector<std::vector<double>>> dim_units(dims.size());
  std::vector<std::vector<bool>> dim_reviewers(dims.size(),
                                               std::vector<bool>(reviewers_.size(), false));
  std::vector<bool> decision_reviewers(reviewers_.size(), false);
  struct Tally {
    int64_t items = 0, pairs = 0, agree = 0;
  };
  std::vector<Tally> tally(reviewers_.size());

  for (const Item& item : items_) {
    if (item.judgements.size() < 2) continue;
    std::vector<const Judgement*> decided;
    for (const Judgement& j : item.judgements) {
      if (j.decision != kNoDecision) decided.push_back(&j);
    }
    if (decided.size() >= 2) {
      std::vector<double>& unit = decision_units.emplace_back();
      for (const Judgement* j : decided) {
        unit.push_back(j->decision);
        decision_reviewers[j->reviewer] = true;
        Tally& t = tally[j->reviewer];
        ++t.items;
        for (const Judgement* k : decided) {
          if (k == j) continue;
          ++t.pairs;
          t.agree += k->decision == j->decision;
        }
      }
      const bool approved = std::any_of(decided.begin(), decided.end(),
                                        [](const Judgement* j) { return j->decision == 0; });
      const bool rejected = std::any_of(decided.begin(), decided.end(),
                                        [](const Judgement* j) { return j->decision == 1; });
      if (approved && rejected) {  // seed 000 §9.2: equally strong signals that conflict
        Clarification c{item.artifact_id, item.version, {}, 0};
        for (const Judgement* j : decided) {
          c.decisions[reviewers_[j->reviewer]] = std::string(kDecisionNames[j->decision]);
          c.at_ms = std::max(c.at_ms, j->at_ms);
        }
        out.clarifications.push_back(std::move(c));
      }
    }
    for (size_t d = 0; d < dims.size() && d < 13; ++d) {
      std::vector<double> unit;
      for (const Judgement& j : item.judgements) {
        if (j.scored & (1u << d)) unit.push_back(j.centi[d] / 100.0);
      }
      if (unit.size() < 2) continue;
      for (const Judgement& j : item.judgements) {
        if (j.scored & (1u << d)) dim_reviewers[d][j.reviewer] = true;
      }
      dim_units[d].push_back(std::move(unit));
    }
  }

  auto alpha = [](const std::vector<std::vector<double>>& units, const std::vector<bool>& who,
                  bool interval) {
    Alpha a;
    a.items = static_cast<int64_t>(units.size());
    a.reviewers = std::count(who.begin(), who.end(), true);
    for (const auto& u : units) a.values += static_cast<int64_t>(u.size());
    if (a.items >= kAgreementMinItems) a.alpha = KrippendorffAlpha(units, interval);
    return a;
  };
  out.decisions = alpha(decision_units, decision_reviewers, /*interval=*/false);
  for (size_t d = 0; d < dims.size() && d < 13; ++d) {
    if (dim_units[d].empty()) continue;
    out.dimensions.emplace(std::string(dims[d]), alpha(dim_units[d], dim_reviewers[d], true));
  }
  for (size_t i = 0; i < reviewers_.size(); ++i) {
    if (tally[i].items == 0) continue;
    ReviewerAgreement ra;
    ra.reviewer = reviewers_[i];
    ra.items = tally[i].items;
    ra.pairs = tally[i].pairs;
    ra.decision_agreement =
        static_cast<double>(tally[i].agree) / static_cast<double>(tally[i].pairs);
    out.reviewers.push_back(std::move(ra));
  }
  std::sort(out.reviewers.begin(), out.reviewers.end(),
            [](const auto& a, const auto& b) { return a.reviewer < b.reviewer; });
  std::sort(out.clarifications.begin(), out.clarifications.end(), [](const auto& a, const auto& b) {
    return std::tie(b.at_ms, a.artifact_id, a.version) <
           std::tie(a.at_ms, b.artifact_id, b.version);
  });
  if (out.clarifications.size() > kMaxClarifications) out.clarifications.resize(kMaxClarifications);
  return out;
}

void WriteJson(base::JsonWriter& w, const AgreementResult& r) {
  auto alpha = [&w](const Alpha& a) {
    w.StartObject();
    base::Key(w, "alpha");
    base::Num(w, a.alpha);
    base::Key(w, "items");
    w.Int64(a.items);
    base::Key(w, "reviewers");
    w.Int64(a.reviewers);
    base::Key(w, "values");
    w.Int64(a.values);
    w.EndObject();
  };
  w.StartObject();
  base::Key(w, "minItems");
  w.Int64(kAgreementMinItems);
  base::Key(w, "decisions");
  alpha(r.decisions);
  base::Key(w, "dimensions");
  w.StartObject();
  for (const auto& [dimension, a] : r.dimensions) {
    base::Key(w, dimension);
    alpha(a);
  }
  w.EndObject();
  base::Key(w, "reviewers");
  w.StartObject();
  for (const ReviewerAgreement& ra : r.reviewers) {
    base::Key(w, ra.reviewer);
    w.StartObject();
    base::Key(w, "items");
    w.Int64(ra.items);
    base::Key(w, "pairs");
    w.Int64(ra.pairs);
    base::Key(w, "decisionAgreement");
    base::Num(w, ra.decision_agreement);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "clarifications");
  w.StartArray();
  for (const Clarification& c : r.clarifications) {
    w.StartObject();
    base::Key(w, "workProduct");
    w.StartObject();
    base::Key(w, "id");
    base::Str(w, c.artifact_id);
    base::Key(w, "version");
    base::Str(w, c.version);
    w.EndObject();
    base::Key(w, "decisions");
    w.StartObject();
    for (const auto& [reviewer, decision] : c.decisions) {
      base::Key(w, reviewer);
      base::Str(w, decision);
    }
    w.EndObject();
    base::Key(w, "at");
    base::Str(w, model::FormatUtc(c.at_ms));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void AgreementTracker::Judgement::serialize(Archive& ar) {
  ar(reviewer, decision, scored, centi, at_ms);
}

template <class Archive>
void AgreementTracker::Item::serialize(Archive& ar) {
  ar(key, artifact_id, version, judgements);
}

template <class Archive>
void AgreementTracker::serialize(Archive& ar) {
  ar(reviewers_, items_);
  if constexpr (state::kLoading<Archive>) {
    reviewer_index_.clear();
    for (size_t i = 0; i < reviewers_.size(); ++i) {
      state::Require(reviewer_index_.emplace(reviewers_[i], static_cast<uint32_t>(i)).second,
                     "a reviewer saved twice");
    }
    index_.clear();
    for (size_t i = 0; i < items_.size(); ++i) {
      const Item& item = items_[i];
      state::Require(index_.emplace(item.key, static_cast<uint32_t>(i)).second,
                     "an item saved twice");
      for (const Judgement& j : item.judgements) {
        state::Require(j.reviewer < reviewers_.size(), "a judgement by an unknown reviewer");
        state::Require(j.decision >= kNoDecision && j.decision <= 2, "an unknown decision");
      }
    }
  }
}

KZ_STATE_INSTANTIATE(AgreementTracker);

}  // namespace kaizen::learn
