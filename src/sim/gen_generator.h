// The simulation behind GenerateHistory (gen_history.h): one history's state and the Generator
// that writes it, for the gen_*.cc files alone. The emitters are split over those files by the
// event kind they write; the plumbing that every line goes through stays here, inline.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "model/timestamp.h"
#include "model/uuid.h"
#include "sim/gen_history.h"
#include "sim/gen_json.h"
#include "sim/gen_random.h"
#include "sim/gen_time.h"
#include "sim/gen_world.h"

namespace kaizen::sim::gen {

using model::EventField;

// ---- The simulation --------------------------------------------------------------------------

struct Item {  // one version of a work product
  int64_t created = 0;
  uint64_t prompt_hash = 0;
  uint32_t product = 0;
  uint32_t generation_ms = 0;
  std::array<float, kDimCount> q{};  // true quality; reviewers see it through their bias
  float prediction = 0, confidence = 0;
  uint16_t criticized = 0;  // dims the last review complained about: the revision fixes them
  uint8_t version = 1, type = 0, server = 0, stage = 0, reviewer = 0, domain = 0, feature = 0;
  uint8_t model = 0, iterations = 1, priority = 0;
  bool external = false;  // reviewed with an inline WorkProductRef, never recorded as work
};

struct Session {
  int64_t start = 0;
  uint32_t number = 0, salt = 0, date = 0;
  uint8_t reviewer = 0, size = 0;
  bool mobile = false;
};

struct Subtask {
  int64_t start = 0, duration = 0;
  uint32_t epic = 0;
  std::array<model::Uuid, 2> error_ids{};
  uint8_t index = 0, plan = 0, server = 0, domain = 0, task = 0;
  uint8_t errors = 0, resolved = 0, retries = 0, criteria = 0, files = 0, message = 0;
  std::array<uint8_t, 2> error_types{};
  bool success = false;
};

struct CorrectionSession {
  int64_t start = 0;
  uint32_t date = 0;
  uint8_t user = 0, project = 0, size = 0, model = 0;
};

struct Loop {
  uint32_t number = 0;
  uint8_t iteration = 0, server = 0, domain = 0;
  double coverage = 0, quality = 0, security = 0, types = 0, docs = 0;
  int vulnerabilities = 0, type_errors = 0, tests = 0;
};

enum Step : uint8_t {
  kWorkStep,
  kSessionStep,
  kReviewStep,
  kEpicStep,
  kErrorStep,
  kResolveStep,
  kOutcomeStep,
  kRewardStep,
  kCorrectionSessionStep,
  kCorrectionStep,
  kLoopStartStep,
  kLoopStep,
  kAdminStep,
};

struct Scheduled {
  int64_t t;
  uint64_t seq;  // ties in time keep scheduling order, so the output is deterministic
  Step step;
  uint32_t a, b;
};
struct Later {
  bool operator()(const Scheduled& x, const Scheduled& y) const {
    return x.t != y.t ? x.t > y.t : x.seq > y.seq;
  }
};

// Shares of the event mix. Feedback outnumbers work about 2:1: second opinions, revisits of
// deferred items and reviews of products submitted outside the pipeline (inline refs).
inline constexpr double kShareFeedback = 0.42, kShareWork = 0.23, kShareSwarm = 0.19,
                        kShareReward = 0.08, kShareCorrection = 0.05, kShareLoop = 0.02,
                        kShareAdmin = 0.01;
inline constexpr std::array<double, 10> kSessionSizeWeights = {8, 12, 15, 15, 13, 11, 9, 7, 5, 5};
// Expected lines per episode, so each process's rate gives its share of the mix.
inline constexpr double kSwarmLinesPerEpic = 3.5 * 1.45;
inline constexpr double kCorrectionsPerSession = 2.15;
inline constexpr double kIterationsPerLoop = 3.3;

class Generator {
 public:
  // Lines go to *out, or to *sink in pieces of about chunk_bytes when sink is given.
  Generator(const GenOptions& o, std::string* out, size_t chunk_bytes,
            const std::function<void(std::string_view)>* sink);

  void Run();

 private:
  // ---- plumbing ----

  // Defined in class, unlike the rest: every line goes through them, from every file, and they
  // must inline there. Flush runs once per chunk, so it is in gen_history.cc with Run.
  void Flush();
  // Nothing is scheduled past the end of the span: a short history that ran long would otherwise
  // drift towards (or past) the present, where the validator refuses timestamps.
  void Schedule(int64_t t, Step step, uint32_t a = 0, uint32_t b = 0) {
    heap_.push({std::clamp(t, now_, std::max(now_, end_ms_)), seq_++, step, a, b});
  }
  int64_t Next(const Calendar& cal, int64_t t, double mean_gap) {
    return cal.Advance(t, rng_.Exp(mean_gap) * Pace(t));
  }
  // With few events, chance alone can leave a history bunched in its first weeks or cut off
  // early; this stretches or squeezes the gaps so the lines still spread over the whole span.
  // Large histories keep their natural rhythm (weekends included), which the rates already hit.
  double Pace(int64_t t) const {
    if (options_.events >= 20000) return 1.0;
    const double expected = (1.0 - Progress(t)) * static_cast<double>(options_.events);
    const double remaining = static_cast<double>(options_.events - emitted_);
    return Clamp(expected / std::max(1.0, remaining), 0.1, 10.0);
  }
  double Progress(int64_t t) const {
    return Clamp(static_cast<double>(t - options_.start_unix_ms) / static_cast<double>(span_ms_),
                 0.0, 1.0);
  }
  static int HourOf(int64_t t) {
    int64_t ms = t % kDay;
    if (ms < 0) ms += kDay;
    return static_cast<int>(ms / kHour);
  }
  // Starts a line: kind, a v7 id for the timestamp, the timestamp. Returns the id.
  model::Uuid Begin(std::string_view kind, int64_t t) {
    // RFC 9562 v7: 48-bit milliseconds big-endian, version 7, variant 10, the rest random.
    model::Uuid id;
    const uint64_t hi = (static_cast<uint64_t>(t) << 16) | 0x7000 | (rng_.Next() >> 52);
    const uint64_t lo = (rng_.Next() >> 2) | (uint64_t{2} << 62);
    for (int i = 0; i < 8; ++i) {
      id.bytes[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
      id.bytes[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
    }
    w_.Object();
    w_.Key(EventField::kind).Lit(kind);
    w_.Key(EventField::id).Uuid(id);
    w_.Key(EventField::timestamp).Timestamp(t);
    return id;
  }
  void End() {
    w_.EndObject();
    w_.EndLine();
    ++emitted_;
  }
  static uint32_t Yyyymmdd(int64_t t) {
    const model::CivilTime c = model::ToCivil(t);
    return static_cast<uint32_t>(c.year * 10000 + c.month * 100 + c.day);
  }
  void ProductId(const Item& it) {
    w_.BeginStr();
    w_.Raw(kServers[it.server].slug);
    w_.Raw("-");
    w_.Raw(kTypes[it.type].slug);
    w_.Raw("-");
    w_.RawNum(it.product, 5);
    w_.EndStr();
  }

  // ---- work products (gen_work.cc) ----

  static double Curve(double p);
  double ExpectedScore(const Item& it) const;
  void Predict(Item* it, double p);
  uint32_t NewItem(int64_t t, bool external, int reviewer);
  uint32_t Revise(uint32_t src, int64_t t);
  void Stamp(Item* it, double p);
  void WriteRef(const Item& it, bool alternative);
  void EmitWork(int64_t t);

  // ---- review sessions (gen_review.cc) ----

  void StartSession(int64_t t, int reviewer);
  uint32_t ChooseItem(int64_t t, int r, bool* primary);
  void EmitReview(int64_t t, uint32_t si, uint32_t pos);

  // ---- swarm: epics, subtasks, errors, outcomes (gen_work.cc) ----

  void PlanEpic(int64_t t);
  void BeadId(const Subtask& st);
  void EmitError(int64_t t, uint32_t si, uint32_t e);
  void EmitResolution(int64_t t, uint32_t si, uint32_t e);
  void EmitOutcome(int64_t t, uint32_t si);

  // ---- rewards and admin (gen_rewards.cc) ----

  void EmitReward(int64_t t);
  void EmitAdmin(int64_t t);

  // ---- corrections and refinement loops (gen_corrections.cc) ----

  void StartCorrections(int64_t t);
  void EmitCorrection(int64_t t, uint32_t ci, uint32_t pos);
  void StartLoop(int64_t t);
  void EmitLoopIteration(int64_t t, uint32_t li);

  // No line comes near this (the largest, a feedback with a comparison, is a few KB).
  static constexpr size_t kMaxLineBytes = 256 << 10;

  const GenOptions options_;
  std::string* out_;
  Json w_;
  Rng rng_;
  size_t chunk_bytes_;
  const std::function<void(std::string_view)>* sink_;
  std::unique_ptr<char[]> buffer_;
  bool reserved_ = false;
  int64_t span_ms_ = kDay, end_ms_ = 0;
  int64_t now_ = 0;
  uint64_t emitted_ = 0, seq_ = 0;
  std::priority_queue<Scheduled, std::vector<Scheduled>, Later> heap_;

  std::array<Calendar, 4> reviewer_cal_;
  Calendar agent_cal_, human_cal_, flat_cal_;
  std::array<double, 4> session_gap_{}, compress_{};
  double work_gap_ = 0, epic_gap_ = 0, reward_gap_ = 0, correction_gap_ = 0, loop_gap_ = 0,
         admin_gap_ = 0;

  std::vector<Item> items_;
  std::array<std::deque<uint32_t>, 4> pending_;  // per reviewer, oldest first
  std::deque<uint32_t> revisions_;               // rejected items waiting for the agent
  std::array<uint32_t, 64> reviewed_{}, approved_{}, recent_work_{};
  std::array<uint32_t, 32> recent_sessions_{};
  uint64_t reviewed_count_ = 0, approved_count_ = 0, recent_work_count_ = 0,
           recent_session_count_ = 0;
  uint32_t products_ = 0, agent_run_ = 0, session_count_ = 0, epics_ = 0, loop_count_ = 0;
  std::vector<Session> sessions_;
  std::vector<Subtask> subtasks_;
  std::vector<CorrectionSession> corrections_;
  std::vector<Loop> loops_;
};

}  // namespace kaizen::sim::gen
