#include "learn/reviews/question_bank.h"

#include <fmt/format.h>

#include <algorithm>

#include "learn/state_archive.h"

namespace kaizen::learn {

const std::vector<BankQuestion>& DefaultQuestionBank() {
  static const std::vector<BankQuestion> bank = {
      {"explanations", "working-style", "Do you prefer detailed explanations or concise answers?"},
      {"reasoning", "working-style",
       "When exploring a problem, do you want me to show my reasoning or just conclusions?"},
      {"clarifying", "working-style",
       "How do you feel about me asking clarifying questions vs. making reasonable assumptions?"},
      {"clever-code", "code-preferences",
       "What's your tolerance for \"clever\" code vs. verbose-but-obvious?"},
      {"error-handling", "code-preferences",
       "Do you prefer comprehensive error handling or fail-fast with clear errors?"},
      {"inline-docs", "code-preferences", "How much inline documentation do you like?"},
      {"todo-list", "process-preferences",
       "Do you want me to use the todo list for small tasks or only complex ones?"},
      {"checkpoints", "process-preferences",
       "How often should I checkpoint/commit during long tasks?"},
      {"architecture", "process-preferences",
       "Do you prefer I ask before making architectural decisions or propose and proceed?"},
      {"uncertainty", "collaboration-style",
       "When I'm uncertain, do you prefer I say so explicitly or present options?"},
      {"push-back", "collaboration-style",
       "How do you feel about me pushing back on requests I think are suboptimal?"},
      {"status-updates", "collaboration-style",
       "Do you want status updates during long operations or just final results?"},
      {"frustrations", "meta", "What's the most frustrating thing an AI assistant has done?"},
      {"twice-as-effective", "meta", "What would make our collaboration 2x more effective?"},
      {"wishes", "meta", "Is there something you wish I would do that I haven't?"},
  };
  return bank;
}

const BankQuestion& FrictionQuestion() {
  static const BankQuestion q{"friction", "friction", "What would have helped?"};
  return q;
}

void QuestionTracker::AddAdmin(const model::AdminView& a) {
  if (a.action == "ask") {
    const std::string session(a.session_id);
    if (!session.empty() && asked_sessions_.insert(session).second) {
      session_order_.push_back(session);
      if (session_order_.size() > kSessionsKept) {
        asked_sessions_.erase(session_order_.front());
        session_order_.pop_front();
      }
    }
    ++asked_[std::string(a.question_id)];
    if (a.question_id == FrictionQuestion().id) last_friction_ms_ = a.at_ms;
  } else if (a.action == "answer") {
    std::string person(!a.reviewer.empty() ? a.reviewer : a.user_id);
    QuestionAnswer answer{std::string(a.question_id), std::string(a.question), std::string(a.note),
                          person, a.at_ms};
    answers_[{answer.question_id, std::move(person)}] = std::move(answer);
  }
}

void QuestionTracker::AddReview(const model::ReviewView& r) {
  const LastReview last{r.at_ms, r.session_fatigue};
  if (r.at_ms >= latest_.at_ms) latest_ = last;
  if (!r.reviewer.empty()) {
    auto it = reviewers_.find(r.reviewer);
    if (it == reviewers_.end()) it = reviewers_.emplace(std::string(r.reviewer), last).first;
    if (r.at_ms >= it->second.at_ms) it->second = last;
  }
}

void QuestionTracker::AddFailure(int64_t at_ms, std::string_view what) {
  if (at_ms < last_failure_ms_) return;
  last_failure_ms_ = at_ms;
  last_failure_ = std::string(what);
}

NextQuestion QuestionTracker::Next(const std::vector<BankQuestion>& bank, const QuestionMoment& at,
                                   const SignalWeightConfig& weights) const {
  NextQuestion out;
  if (!at.session.empty() && asked_sessions_.contains(at.session)) {
    out.why = "a question was asked in this session already";
    return out;
  }
  const LastReview* last = &latest_;
  if (!at.person.empty()) {
    auto it = reviewers_.find(at.person);
    last = it == reviewers_.end() ? nullptr : &it->second;
  }
  if (last != nullptr && last->at_ms > 0 && at.now_ms - last->at_ms <= at.fatigue_window_ms &&
      IsFatigued(weights, last->session_fatigue)) {
    out.why = fmt::format(
        "the reviewer is fatigued (their last review, {} min ago, was the {}th of its session)",
        (at.now_ms - last->at_ms) / 60000, last->session_fatigue);
    return out;
  }
  if (last_failure_ms_ > 0 && last_failure_ms_ > last_friction_ms_) {
    out.question = FrictionQuestion();
    out.why = "after " + last_failure_;
    return out;
  }
  const BankQuestion* best = nullptr;
  int64_t best_count = 0;
  for (const BankQuestion& q : bank) {
    auto it = asked_.find(q.id);
    const int64_t count = it == asked_.end() ? 0 : it->second;
    if (best == nullptr || count < best_count) {
      best = &q;
      best_count = count;
    }
  }
  if (best == nullptr) {
    out.why = "the question bank is empty";
    return out;
  }
  out.question = *best;
  out.why = best_count == 0 ? "the bank's next question not asked yet"
                            : fmt::format("every question was asked; round {}", best_count + 1);
  return out;
}

std::vector<QuestionAnswer> QuestionTracker::Answers() const {
  std::vector<QuestionAnswer> out;
  for (const auto& [key, a] : answers_) out.push_back(a);
  std::stable_sort(out.begin(), out.end(), [](const QuestionAnswer& a, const QuestionAnswer& b) {
    return a.at_ms > b.at_ms;
  });
  return out;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void QuestionAnswer::serialize(Archive& ar) {
  ar(question_id, question, answer, person, at_ms);
}

template <class Archive>
void QuestionTracker::LastReview::serialize(Archive& ar) {
  ar(at_ms, session_fatigue);
}

template <class Archive>
void QuestionTracker::serialize(Archive& ar) {
  ar(asked_sessions_, session_order_, asked_, last_failure_ms_, last_friction_ms_, last_failure_,
     reviewers_, latest_, answers_);
}

KZ_STATE_INSTANTIATE(QuestionTracker);

}  // namespace kaizen::learn
