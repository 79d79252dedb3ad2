// seed 001 tier 3, the agent's question bank ("Getting to Know You"): at a natural pause the
// agent may ask its person one question about how they like to work, and what they answer is
// kept and told to the agent from then on. Which question, if any (Next):
//   - never a second one in the same session;
//   - none while the person is fatigued: their latest review, within fatigue_window of now, was
//     their fatigue_after-th or later of its session (seed 000 §3.4/§9.3, weights.fatigue_after);
//   - after a revert, a rewrite of the agent's work or a failed task newer than the last friction
//     question, the friction question: "What would have helped?";
//   - else the bank's next question, the least asked first, in bank order: none comes again
//     before every other was asked.
// Asked and answered questions are `admin` events (action ask / answer), so every machine of a
// team reads the same history. The bank itself is configuration (<home>/config/questions.json,
// default seed 001's fifteen), given to Next; this file keeps nothing of it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct BankQuestion {
  std::string id, category, text;
};
// seed 001's fifteen, in its order (Working Style, Code Preferences, Process Preferences,
// Collaboration Style, Meta).
const std::vector<BankQuestion>& DefaultQuestionBank();
// Asked after something of the agent's went wrong (seed 001: "What would have helped?").
const BankQuestion& FrictionQuestion();

struct QuestionMoment {
  std::string session, person;  // person: empty for whoever reviewed last
  int64_t now_ms = 0;
  int64_t fatigue_window_ms = 30 * 60 * 1000;
};

struct NextQuestion {
  std::optional<BankQuestion> question;
  std::string why;  // why this question, or why none now
};

struct QuestionAnswer {
  std::string question_id, question, answer, person;
  int64_t at_ms = 0;

  template <class Archive>
  void serialize(Archive& ar);
};

class QuestionTracker {
 public:
  // `admin` ask and answer events; other actions are ignored.
  void AddAdmin(const model::AdminView& admin);
  // A review: its reviewer's latest review and where it stood in its session (fatigue).
  void AddReview(const model::ReviewView& review);
  // A revert, a rewrite of the agent's lines, or a failed task: the next question is friction.
  void AddFailure(int64_t at_ms, std::string_view what);

  NextQuestion Next(const std::vector<BankQuestion>& bank, const QuestionMoment& at,
                    const SignalWeightConfig& weights) const;
  // Each person's latest answer to each question, newest first.
  std::vector<QuestionAnswer> Answers() const;

 private:
  struct LastReview {
    int64_t at_ms = 0, session_fatigue = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  // Sessions a question was asked in: the newest kSessionsKept (older sessions are over).
  static constexpr size_t kSessionsKept = 4096;
  std::set<std::string, std::less<>> asked_sessions_;
  std::deque<std::string> session_order_;
  std::map<std::string, int64_t> asked_;  // question id -> times asked
  int64_t last_failure_ms_ = 0, last_friction_ms_ = 0;
  std::string last_failure_;
  std::map<std::string, LastReview, std::less<>> reviewers_;
  LastReview latest_;  // whoever reviewed last
  // (question id, person) -> the latest answer
  std::map<std::pair<std::string, std::string>, QuestionAnswer> answers_;
};

}  // namespace kaizen::learn
