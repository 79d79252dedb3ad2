// The reviewers' side of the history: review sessions and their `feedback` lines, the lines the
// learning engine reads most. EmitReview stays whole: its draws come in one order, field by field.
#include "sim/gen_generator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kaizen::sim::gen {

using model::EventField;

// ---- review sessions ----

void Generator::StartSession(int64_t t, int reviewer) {
  Session s;
  s.start = t;
  s.date = Yyyymmdd(t);
  s.number = ++session_count_;
  s.salt = static_cast<uint32_t>(rng_.Next() & 0xFFFFFF);
  s.reviewer = static_cast<uint8_t>(reviewer);
  s.size = static_cast<uint8_t>(1 + rng_.Weighted(kSessionSizeWeights));
  s.mobile = rng_.Chance(0.08);
  sessions_.push_back(s);
  recent_sessions_[recent_session_count_++ % recent_sessions_.size()] =
      static_cast<uint32_t>(sessions_.size() - 1);
  Schedule(Next(reviewer_cal_[reviewer], t, session_gap_[reviewer]), kSessionStep,
           static_cast<uint32_t>(reviewer));
  EmitReview(t, static_cast<uint32_t>(sessions_.size() - 1), 0);
}

// Which item the reviewer opens: their own queue, else a colleague's backlog, else a second
// opinion on something recently reviewed, else a product submitted outside the pipeline.
uint32_t Generator::ChooseItem(int64_t t, int r, bool* primary) {
  *primary = false;
  if (!pending_[r].empty()) {
    const uint32_t idx = pending_[r].front();
    pending_[r].pop_front();
    *primary = true;
    return idx;
  }
  size_t longest = 0;
  int other = -1;
  for (int o = 0; o < 4; ++o) {
    if (o != r && pending_[o].size() > longest) {
      longest = pending_[o].size();
      other = o;
    }
  }
  if (other >= 0 && longest > 2) {
    const uint32_t idx = pending_[other].front();
    pending_[other].pop_front();
    items_[idx].reviewer = static_cast<uint8_t>(r);
    *primary = true;
    return idx;
  }
  const size_t ring = std::min<size_t>(reviewed_count_, reviewed_.size());
  if (ring > 0 && rng_.Chance(0.88)) {
    const uint32_t idx = reviewed_[rng_.Below(static_cast<uint32_t>(ring))];
    if (items_[idx].reviewer != r) return idx;
  }
  return NewItem(t, true, r);
}

void Generator::EmitReview(int64_t t, uint32_t si, uint32_t pos) {
  const Session s = sessions_[si];
  const int r = s.reviewer;
  const Reviewer& rv = Reviewers()[r];
  const double p = Progress(t);
  const int hour = HourOf(t);
  const bool evening = hour >= 19 || hour < 6;
  bool primary;
  const uint32_t idx = ChooseItem(t, r, &primary);
  const Item it = items_[idx];  // a copy: items_ may grow below
  const bool inline_ref = it.external || rng_.Chance(0.05);

  // Scores: the reviewer's focus dimensions that apply, plus a few others.
  const uint16_t relevant = kTypes[it.type].dims;
  uint16_t chosen = rv.focus & relevant;
  int want = 3 + static_cast<int>(rng_.Below(3)) - (evening || s.mobile ? 1 : 0);
  const int available = std::popcount(relevant);
  while (std::popcount(chosen) < std::min(want, available)) {
    std::array<int, kDimCount> candidates;
    int n = 0;
    for (int d = 0; d < kDimCount; ++d) {
      if ((relevant & ~chosen) & (1u << d)) candidates[n++] = d;
    }
    chosen |= static_cast<uint16_t>(1u << candidates[rng_.Below(static_cast<uint32_t>(n))]);
  }
  std::array<int, kDimCount> score{};
  std::array<int, kDimCount> dims{};
  int n_scores = 0;
  double sum = 0;
  const double noise = evening ? 1.2 : 0.7 + 0.04 * pos;
  for (int d = 0; d < kDimCount; ++d) {
    if (!(chosen & (1u << d))) continue;
    score[d] = static_cast<int>(Clamp(Round(it.q[d] + rv.bias[d] + noise * rng_.Normal()), 1, 10));
    dims[n_scores++] = d;
    sum += score[d];
  }
  const double mean = sum / n_scores;
  // Dimensions from worst to best; the reviewer's own concerns first among equals.
  std::array<int, kDimCount> order = dims;
  const auto worse = [&](int a, int b) {
    if (score[a] != score[b]) return score[a] < score[b];
    return ((rv.focus >> a) & 1) > ((rv.focus >> b) & 1);
  };
  for (int i = 1; i < n_scores; ++i) {  // insertion sort: stable, and at most 13 elements
    for (int j = i; j > 0 && worse(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
  }
  const int worst = order[0], best = order[n_scores - 1];

  // Decision: the reviewer's hard gates first, then the overall bar.
  Decision decision = kApproved;
  bool gated = false;
  for (const Gate& g : rv.gates) {
    if ((chosen & (1u << g.dim)) && score[g.dim] < g.below && rng_.Chance(g.p)) {
      decision = g.outcome;
      gated = true;
      break;
    }
  }
  if (!gated) {
    if (mean >= rv.approve_at) {
      decision = rng_.Chance(0.04) ? kNeedsWork : kApproved;
    } else if (mean < rv.approve_at - 1.5) {
      decision = rng_.Chance(0.7) ? kRejected : kNeedsWork;
    } else {
      const double u = rng_.U();
      decision = u < 0.6 ? kNeedsWork : u < 0.92 ? kApproved : kDeferred;
    }
  }
  // Seed 000: design decisions get deferred when tired, in the evening or deep in a session.
  if (r == 2 && decision != kApproved && (evening || pos >= 6) && rng_.Chance(0.35)) {
    decision = kDeferred;
  }

  const auto& texts = Texts();
  // The reviewer's main complaint reads the same in the reason, the blockers and the free text.
  const std::string_view headline = rng_.Pick(texts[worst].disliked);
  const bool has_second = n_scores > 1 && score[order[1]] <= 5;
  const std::string_view second = has_second ? rng_.Pick(texts[order[1]].disliked) : headline;
  Begin("feedback", t);
  w_.Key(EventField::sessionId).BeginStr();
  w_.Raw("sess-");
  w_.Raw(rv.id);
  w_.Raw("-");
  w_.RawNum(s.date, 8);
  w_.Raw("-");
  w_.RawNum(s.number, 5);
  w_.EndStr();
  w_.Key(EventField::modalId).BeginStr();
  w_.Raw("modal-");
  w_.RawHex(s.salt, 6);
  w_.Raw("-");
  w_.RawNum(pos + 1);
  w_.EndStr();
  const bool diff_view = p >= 0.4;  // seed 000: reviews switched to diff-based presentation
  w_.Key(EventField::modalVersion).Lit(diff_view ? "review-modal-3" : "review-modal-2");
  w_.Key(EventField::workProduct);
  if (inline_ref) {
    WriteRef(it, false);
  } else {
    w_.Object();
    w_.Key(EventField::id);
    ProductId(it);
    w_.Key(EventField::version).BeginStr();
    w_.Raw("v");
    w_.RawNum(it.version);
    w_.EndStr();
    w_.EndObject();
  }
  w_.Key(EventField::pipelineStage).Lit(kStages[it.stage]);
  w_.Key(EventField::mcpServerType).Lit(kServers[it.server].slug);
  w_.Key(EventField::reviewerId).Lit(rv.id);

  w_.Key(EventField::decision).Object();
  w_.Key(EventField::decision).Lit(kDecisionNames[decision]);
  if (decision == kApproved) {
    w_.Key(EventField::reason).Lit(rng_.Pick(kApprovedReasons));
  } else if (decision == kDeferred) {
    w_.Key(EventField::reason).Lit(rng_.Pick(kDeferredReasons));
  } else {
    w_.Key(EventField::reason).Lit(headline);
    const int low = score[worst];
    w_.Key(EventField::severity)
        .Lit(low <= 2   ? "critical"
             : low <= 4 ? "major"
             : low <= 5 ? "moderate"
                        : "minor");
    if (decision == kRejected) {
      w_.Key(EventField::blockers).Array();
      w_.Lit(headline);
      if (has_second) w_.Lit(second);
      w_.EndArray();
    }
    w_.Key(EventField::suggestions).Array();
    w_.Lit(rng_.Pick(texts[worst].fixes));
    if (n_scores > 1 && score[order[1]] <= 6 && rng_.Chance(0.5)) {
      w_.Lit(rng_.Pick(texts[order[1]].fixes));
    }
    w_.EndArray();
  }
  w_.EndObject();

  w_.Key(EventField::scores).Array();
  for (int i = 0; i < n_scores; ++i) {
    const int d = dims[i];
    w_.Object();
    w_.Key(EventField::dimension).Lit(DimName(d));
    w_.Key(EventField::score).Int(score[d]);
    if (score[d] <= 4 && rng_.Chance(0.3))
      w_.Key(EventField::comment).Lit(rng_.Pick(texts[d].disliked));
    w_.EndObject();
  }
  w_.EndArray();

  // Free text: less of it in the evening, on a phone and late in a session.
  bool wrote_text = false;
  const double p_text = 0.72 + (decision == kRejected ? 0.15 : 0) - (evening ? 0.25 : 0) -
                        (s.mobile ? 0.3 : 0) - 0.03 * pos;
  if (rng_.Chance(p_text)) {
    const bool liked = score[best] >= 7 && rng_.Chance(0.85);
    const bool disliked = score[worst] <= 6;
    const bool notes = rng_.Chance(0.45) || (!liked && !disliked);
    wrote_text = true;
    w_.Key(EventField::freeText).Object();
    if (liked) {
      w_.Key(EventField::liked).BeginStr();
      w_.Esc(rng_.Pick(texts[best].liked));
      w_.Raw(".");
      w_.EndStr();
    }
    if (disliked) {
      w_.Key(EventField::disliked).BeginStr();
      w_.Esc(headline);
      w_.Raw(".");
      if (has_second && rng_.Chance(0.5)) {
        w_.Raw(" ");
        w_.Esc(second);
        w_.Raw(".");
      }
      w_.EndStr();
    }
    if (notes) {
      w_.Key(EventField::generalNotes)
          .Lit(decision == kApproved ? rng_.Pick(rv.notes_positive) : rng_.Pick(rv.notes_negative));
    }
    w_.EndObject();
  }

  bool wrote_comparison = false;
  if (rng_.Chance(0.04)) {
    wrote_comparison = true;
    Item alt = it;
    // The alternative is another design: another feature, judged with the reviewers' taste.
    alt.feature = static_cast<uint8_t>((it.feature + 1 + rng_.Below(kFeatures.size() - 1)) %
                                       kFeatures.size());
    const double taste = kFeatureTaste[alt.feature] - kFeatureTaste[it.feature];
    for (int d = 0; d < kDimCount; ++d) {
      alt.q[d] = static_cast<float>(Clamp(it.q[d] + taste + 1.1 * rng_.Normal(), 1.0, 10.0));
    }
    Predict(&alt, p);
    alt.prompt_hash = rng_.Next();
    double qa = 0, qb = 0;
    for (int i = 0; i < n_scores; ++i) {
      qa += it.q[dims[i]];
      qb += alt.q[dims[i]];
    }
    qa /= n_scores;
    qb /= n_scores;
    const double gap = std::fabs(qa - qb);
    w_.Key(EventField::comparison).Object();
    w_.Key(EventField::optionA);
    WriteRef(it, false);
    w_.Key(EventField::optionB);
    WriteRef(alt, true);
    w_.Key(EventField::preferred)
        .Lit(qa >= 7.5 && qb >= 7.5 ? "both-good"
             : qa < 5 && qb < 5     ? "neither"
             : qa >= qb             ? "A"
                                    : "B");
    w_.Key(EventField::reason)
        .Lit(qa >= qb ? rng_.Pick(texts[best].liked) : rng_.Pick(texts[worst].disliked));
    w_.Key(EventField::preferenceStrength)
        .Lit(gap < 0.5   ? "slight"
             : gap < 1.2 ? "moderate"
             : gap < 2   ? "strong"
                         : "overwhelming");
    w_.Key(EventField::dimensions).Array();
    for (int i = 0; i < std::min(n_scores, 3); ++i) {
      const int d = dims[i];
      const double delta = it.q[d] - alt.q[d];
      w_.Object();
      w_.Key(EventField::dimension).Lit(DimName(d));
      w_.Key(EventField::winner).Lit(std::fabs(delta) < 0.3 ? "tie" : delta > 0 ? "A" : "B");
      w_.EndObject();
    }
    w_.EndArray();
    w_.EndObject();
  }

  bool wrote_annotations = false;
  if (IsCode(it.type) && rng_.Chance(decision == kRejected ? 0.4 : 0.18)) {
    wrote_annotations = true;
    const int count = 1 + static_cast<int>(rng_.Below(3));
    w_.Key(EventField::annotations).Array();
    uint32_t line = 8 + rng_.Below(40);
    for (int i = 0; i < count; ++i) {
      const int d = i == 0           ? worst
                    : i == count - 1 ? best
                                     : dims[rng_.Below(static_cast<uint32_t>(n_scores))];
      const int sc = score[d];
      const uint32_t start = line + rng_.Below(60);
      const uint32_t end = start + rng_.Below(20);
      line = end + 1;
      w_.Object();
      std::string_view type, text, severity;
      if (sc <= 5) {
        type = "criticism", text = rng_.Pick(texts[d].disliked);
        severity = sc <= 2 ? "critical" : sc <= 3 ? "major" : "minor";
      } else if (sc >= 8) {
        type = "praise", text = rng_.Pick(texts[d].liked);
      } else if (rng_.Chance(0.7)) {
        type = "suggestion", text = rng_.Pick(texts[d].fixes), severity = "nit";
      } else {
        type = "question", text = rng_.Pick(kQuestions);
      }
      w_.Key(EventField::type).Lit(type);
      w_.Key(EventField::target).Object();
      w_.Key(EventField::file).BeginStr();
      w_.Raw("servers/");
      w_.Raw(kServers[it.server].slug);
      w_.Raw(it.type == 2 ? "/test/" : "/src/");
      w_.Raw(kServers[it.server].domains[it.domain]);
      w_.Raw(it.type == 2 ? ".test.ts" : ".ts");
      w_.EndStr();
      w_.Key(EventField::lineStart).Int(start);
      w_.Key(EventField::lineEnd).Int(end);
      w_.EndObject();
      w_.Key(EventField::text).Lit(text);
      if (!severity.empty()) w_.Key(EventField::severity).Lit(severity);
      w_.Key(EventField::category).Lit(DimName(d));
      w_.EndObject();
    }
    w_.EndArray();
  }

  bool wrote_confidence = false;
  std::string_view level;
  if (rng_.Chance(0.25)) {
    wrote_confidence = true;
    const double margin = std::fabs(mean - rv.approve_at);
    level = margin < 0.5   ? (rng_.Chance(0.2) ? "very-unsure" : "somewhat-unsure")
            : margin < 1.5 ? "fairly-sure"
                           : "very-sure";
    const bool security_doubt =
        (chosen & Bit(kSecurity)) && r != 0 &&
        (score[kSecurity] <= 5 || (SecuritySensitive(it.server) && rng_.Chance(0.3)));
    w_.Key(EventField::confidence).Object();
    w_.Key(EventField::level).Lit(level);
    w_.Key(EventField::wouldDelegateToAI)
        .Bool(decision == kApproved && mean >= 7.5 && rng_.Chance(0.7));
    w_.Key(EventField::needsExpertReview).Bool(security_doubt);
    w_.EndObject();
  }

  // Decision time: quick approvals, slow deliberation; security-sensitive work and the old
  // full-file presentation take longer; evenings are fast and careless.
  static constexpr std::array<double, 4> kMedianMs = {35000, 210000, 110000, 320000};
  double ttd = kMedianMs[decision] * rv.ttd_scale;
  if (SecuritySensitive(it.server) && (chosen & Bit(kSecurity))) ttd *= 1.6;
  if (it.type == 0 && !diff_view) ttd *= 1.4;
  if (evening) ttd *= 0.55;
  if (s.mobile) ttd *= 0.8;
  ttd *= std::max(0.6, 1.0 - 0.03 * pos);
  ttd = Clamp(rng_.LogNormal(ttd, 0.5), 3000, 3600000);
  w_.Key(EventField::meta).Object();
  w_.Key(EventField::timeToDecisionMs).Int(Round(ttd));
  if (rng_.Chance(0.9)) {
    const double first = std::min(ttd * 0.8, rng_.LogNormal(s.mobile ? 4000 : 2500, 0.6));
    w_.Key(EventField::timeToFirstInteractionMs).Int(Round(first));
  }
  w_.Key(EventField::fieldsModified).Array();
  w_.Lit("decision");
  w_.Lit("scores");
  if (wrote_text) w_.Lit("freeText");
  if (wrote_comparison) w_.Lit("comparison");
  if (wrote_annotations) w_.Lit("annotations");
  if (wrote_confidence) w_.Lit("confidence");
  w_.EndArray();
  const double scroll =
      rv.scroll + (decision != kApproved ? 0.15 : 0) - (evening ? 0.2 : 0) + 0.1 * rng_.Normal();
  w_.Key(EventField::scrollDepth).Num(Clamp(scroll, 0.05, 1.0), 2);
  const bool deliberated = decision == kRejected || decision == kDeferred;
  w_.Key(EventField::revisits).Int(deliberated ? rng_.Below(4) : (rng_.Chance(0.15) ? 1 : 0));
  w_.Key(EventField::deviceType).Lit(s.mobile ? "mobile" : "desktop");
  w_.Key(EventField::concurrentModals).Int(rng_.Below(2) + (pos >= 3 && rng_.Chance(0.4) ? 1 : 0));
  // Seed 000 §3.5 presentation formats: the diff view, the full file, or the summary alone.
  w_.Key(EventField::presentationFormat)
      .Lit(diff_view         ? "diff-summary"
           : IsCode(it.type) ? "full-file"
                             : "summary-only");
  w_.EndObject();

  // Seed 000 §9.3: emphatic reviews count double, unsure ones half.
  const int low = score[worst];
  if ((decision == kRejected && low <= 3 && rng_.Chance(0.4)) ||
      (decision == kApproved && mean >= 8.5 && rng_.Chance(0.4))) {
    w_.Key(EventField::override).Lit("strong");
  } else if ((wrote_confidence && level.ends_with("unsure") && rng_.Chance(0.5)) ||
             rng_.Chance(0.01)) {
    w_.Key(EventField::override).Lit("weak");
  }
  End();

  if (primary && !it.external) {
    Item& stored = items_[idx];
    if (decision == kApproved) {
      approved_[approved_count_++ % approved_.size()] = idx;
    } else if (decision == kDeferred) {
      pending_[r].push_back(idx);
    } else {
      uint16_t criticized = 0;
      for (int i = 0; i < n_scores; ++i) {
        if (score[dims[i]] <= 6) criticized |= static_cast<uint16_t>(1u << dims[i]);
      }
      stored.criticized = static_cast<uint16_t>(criticized | (1u << worst));
      if (stored.version < 6 && rng_.Chance(0.9)) revisions_.push_back(idx);
    }
    reviewed_[reviewed_count_++ % reviewed_.size()] = idx;
  }

  if (pos + 1 < s.size) {
    const double pause = rng_.LogNormal(20000, 0.6) + rng_.LogNormal(60000, 0.8);
    Schedule(t + Round(std::max(1000.0, pause * compress_[r])), kReviewStep, si, pos + 1);
  }
}

}  // namespace kaizen::sim::gen
