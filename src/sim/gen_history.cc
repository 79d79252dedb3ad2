// GenerateHistory: the Generator's set-up and its event loop, the one place that orders the steps
// of a history, and so its draws and bytes; what each step writes is in the other gen_*.cc files.
#include "sim/gen_history.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "sim/gen_generator.h"

namespace kaizen::sim {
namespace gen {

Generator::Generator(const GenOptions& o, std::string* out, size_t chunk_bytes,
                     const std::function<void(std::string_view)>* sink)
    : options_(o),
      out_(out),
      rng_(o.seed),
      chunk_bytes_(std::clamp<size_t>(chunk_bytes, 4096, size_t{64} << 20)),
      sink_(sink) {
  buffer_ = std::make_unique<char[]>(chunk_bytes_ + kMaxLineBytes);
  w_.Reset(buffer_.get());
  span_ms_ = std::max<int64_t>(1, o.span_days) * kDay;
  end_ms_ = o.start_unix_ms + span_ms_;
  const double per_ms = static_cast<double>(o.events) / static_cast<double>(span_ms_);
  const auto& reviewers = Reviewers();
  double mean_session = 0, weight = 0;
  for (size_t i = 0; i < kSessionSizeWeights.size(); ++i) {
    mean_session += static_cast<double>(i + 1) * kSessionSizeWeights[i];
    weight += kSessionSizeWeights[i];
  }
  mean_session /= weight;
  for (size_t r = 0; r < reviewers.size(); ++r) {
    const Reviewer& rv = reviewers[r];
    reviewer_cal_[r] = Calendar(rv.weekday_hours, rv.weekend);
    const double rate = kShareFeedback * rv.share * per_ms;
    session_gap_[r] = mean_session / rate;
    // At a million events a reviewer "reviews" one item every few seconds; squeeze the pauses
    // inside a session so sessions stay shorter than the gaps between them.
    const double per_day = rate * kDay;
    const double natural_ms = 90.0 * kSecond;
    compress_[r] = Clamp(0.5 * (8.0 * kHour / std::max(per_day, 1e-9)) / natural_ms, 0.02, 1.0);
  }
  agent_cal_ = Calendar(Hours(7, 19, 1.4, {}, 0.35), 0.6);
  human_cal_ = Calendar(Hours(9, 18, 1.0, {{8, 0.4}, {19, 0.4}}), 0.1);
  flat_cal_ = Calendar(Hours(0, 23, 1.0), 1.0);
  work_gap_ = 1.0 / (kShareWork * per_ms);
  epic_gap_ = kSwarmLinesPerEpic / (kShareSwarm * per_ms);
  reward_gap_ = 1.0 / (kShareReward * per_ms);
  correction_gap_ = kCorrectionsPerSession / (kShareCorrection * per_ms);
  loop_gap_ = kIterationsPerLoop / (kShareLoop * per_ms);
  admin_gap_ = 1.0 / (kShareAdmin * per_ms);
}

void Generator::Run() {
  if (options_.events == 0) return;
  const int64_t t0 = options_.start_unix_ms;
  now_ = t0;
  // The history opens with a work event and its reviewer's first session, so even a short
  // history shows the loop the engine learns from: work, then feedback naming it.
  EmitWork(t0);
  Schedule(Next(agent_cal_, t0, work_gap_), kWorkStep);
  const int first = items_.front().reviewer;
  for (size_t r = 0; r < Reviewers().size(); ++r) {
    const double gap =
        static_cast<int>(r) == first ? std::min(session_gap_[r], 1.0 * kHour) : session_gap_[r];
    Schedule(Next(reviewer_cal_[r], t0, gap), kSessionStep, static_cast<uint32_t>(r));
  }
  Schedule(Next(agent_cal_, t0, epic_gap_), kEpicStep);
  Schedule(Next(flat_cal_, t0, reward_gap_), kRewardStep);
  Schedule(Next(human_cal_, t0, correction_gap_), kCorrectionSessionStep);
  Schedule(Next(flat_cal_, t0, loop_gap_), kLoopStartStep);
  Schedule(Next(human_cal_, t0, admin_gap_), kAdminStep);

  while (emitted_ < options_.events) {
    const Scheduled s = heap_.top();
    heap_.pop();
    now_ = s.t;
    switch (s.step) {
      case kWorkStep:
        EmitWork(s.t);
        Schedule(Next(agent_cal_, s.t, work_gap_), kWorkStep);
        break;
      case kSessionStep:
        StartSession(s.t, static_cast<int>(s.a));
        break;
      case kReviewStep:
        EmitReview(s.t, s.a, s.b);
        break;
      case kEpicStep:
        PlanEpic(s.t);
        Schedule(Next(agent_cal_, s.t, epic_gap_), kEpicStep);
        break;
      case kErrorStep:
        EmitError(s.t, s.a, s.b);
        break;
      case kResolveStep:
        EmitResolution(s.t, s.a, s.b);
        break;
      case kOutcomeStep:
        EmitOutcome(s.t, s.a);
        break;
      case kRewardStep:
        EmitReward(s.t);
        Schedule(Next(flat_cal_, s.t, reward_gap_), kRewardStep);
        break;
      case kCorrectionSessionStep:
        StartCorrections(s.t);
        break;
      case kCorrectionStep:
        EmitCorrection(s.t, s.a, s.b);
        break;
      case kLoopStartStep:
        StartLoop(s.t);
        break;
      case kLoopStep:
        EmitLoopIteration(s.t, s.a);
        break;
      case kAdminStep:
        EmitAdmin(s.t);
        Schedule(Next(human_cal_, s.t, admin_gap_), kAdminStep);
        break;
    }
    if (static_cast<size_t>(w_.pos() - buffer_.get()) >= chunk_bytes_) Flush();
  }
  Flush();
}

void Generator::Flush() {
  const std::string_view chunk(buffer_.get(), static_cast<size_t>(w_.pos() - buffer_.get()));
  w_.Reset(buffer_.get());
  if (chunk.empty()) return;
  if (sink_ != nullptr) {
    (*sink_)(chunk);
    return;
  }
  if (!reserved_) {
    // One allocation for the whole history, sized from the lines so far, instead of doubling
    // (and copying) a string of hundreds of MB.
    reserved_ = true;
    const double per_line = static_cast<double>(chunk.size()) / static_cast<double>(emitted_);
    // Generously: later lines run longer than the first ones, and pages never written cost
    // nothing.
    const double rest = static_cast<double>(options_.events - emitted_) * per_line * 1.6;
    out_->reserve(out_->size() + chunk.size() + static_cast<size_t>(rest) + 4096);
  }
  out_->append(chunk);
}

}  // namespace gen

void GenerateHistory(const GenOptions& options, std::string* out) {
  gen::Generator(options, out, size_t{1} << 20, nullptr).Run();
}

void GenerateHistory(const GenOptions& options, size_t chunk_bytes,
                     const std::function<void(std::string_view)>& sink) {
  gen::Generator(options, nullptr, chunk_bytes, &sink).Run();
}

}  // namespace kaizen::sim
