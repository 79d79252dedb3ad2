// `kaizen ask [--session S] [--reviewer R] [--json]` and `kaizen answer QUESTION_ID ANSWER...`:
// seed 001 tier 3, the agent's question bank, for scripts and agents at a natural pause (the end
// of a task or a session). `ask` prints the one question to ask now, or why none, and records
// that it was asked; `answer` records what the person said, which kaizen then tells the agent
// (context, hints). The choice of question is learn/reviews/question_bank.h's.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "base/json_text.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "home/loop_store.h"
#include "home/question_config.h"

namespace kaizen::cli {
namespace {

struct AskFlags {
  std::string session, reviewer;
  double fatigue_window_minutes = 30;
};

int Ask(const Common& c, const AskFlags& f) {
  auto bank = home::LoadQuestionBank(c.home);
  if (!bank.ok()) return home::FailVerb("ask", bank.status());
  home::LearnedState state;
  if (Status s = home::LoadLearnedState(c, &state, nullptr, learn::Parts{learn::Part::kProfiles});
      !s.ok()) {
    return home::FailVerb("ask", s);
  }
  home::WarnUnreadable(state.scan);
  learn::QuestionMoment at;
  at.session = f.session;
  at.person = f.reviewer;
  at.now_ms = state.now_ms;
  at.fatigue_window_ms = static_cast<int64_t>(f.fatigue_window_minutes * 60'000);
  const learn::NextQuestion next =
      state.learner->questions().Next(*bank, at, state.learner->config().weights);
  if (!next.question) {
    if (c.json) {
      fmt::print("{}\n", home::NextQuestionJson(next));
    } else {
      fmt::print(stderr, "kaizen ask: no question now: {}\n", next.why);
    }
    return kExitOk;
  }
  const learn::BankQuestion& q = *next.question;
  auto stored = home::StoreEvent(c, state.now_ms, model::EventKind::kAdmin,
                                 home::AskEventJson(q, f.session, f.reviewer));
  if (!stored.ok()) return home::FailVerb("ask", stored.status());
  if (c.json) {
    fmt::print("{}\n", home::NextQuestionJson(next, stored->id));
  } else {
    fmt::print("{}\n", q.text);
    fmt::print(stderr, "(question {}: {}; answer with `kaizen answer {} \"...\"`)\n", q.id,
               next.why, q.id);
  }
  return kExitOk;
}

int Answer(const Common& c, const std::string& id, const std::vector<std::string>& words,
           const AskFlags& f) {
  auto bank = home::LoadQuestionBank(c.home);
  if (!bank.ok()) return home::FailVerb("answer", bank.status());
  const learn::BankQuestion* q = home::FindQuestion(*bank, id);
  if (q == nullptr) {
    fmt::print(stderr,
               "kaizen answer: QUESTION_ID \"{}\" is not a question of the bank (one of {})\n", id,
               home::QuestionIds(*bank));
    return kExitUsage;
  }
  std::string answer;
  for (const std::string& w : words) answer += (answer.empty() ? "" : " ") + w;
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb("answer", now.status());
  auto stored = home::StoreEvent(c, *now, model::EventKind::kAdmin,
                                 home::AnswerEventJson(*q, answer, f.session, f.reviewer));
  if (!stored.ok()) return home::FailVerb("answer", stored.status());
  if (stored->skipped) {
    fmt::print(stderr, "kaizen answer: not stored: {}\n", stored->skip_reason);
    return kExitOk;
  }
  if (c.json) {
    fmt::print("{{\"id\":{},\"question\":{}}}\n", base::JsonQuote(stored->id),
               base::JsonQuote(q->id));
  } else {
    fmt::print("kaizen answer: recorded the answer to \"{}\": {}\n", q->text, stored->id);
  }
  return kExitOk;
}

}  // namespace

Verb AddAskVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<AskFlags>();
  CLI::App* sub = app.add_subcommand(
      "ask",
      "the one question to ask the person now from the question bank (seed 001 tier 3), or why "
      "none; records that it was asked");
  sub->add_option("--session", f->session,
                  "the session it would be asked in: never a second question in one session");
  sub->add_option("--reviewer", f->reviewer,
                  "who would be asked (default: whoever reviewed last): none while they are "
                  "fatigued");
  sub->add_option("--fatigue-window", f->fatigue_window_minutes,
                  "minutes after a review in which its reviewer's fatigue counts (default 30)")
      ->check(CLI::Range(0.0, 1440.0));
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, f] { return Ask(c, *f); }};
}

Verb AddAnswerVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<AskFlags>();
  auto id = std::make_shared<std::string>();
  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "answer", "record a person's answer to a question of the bank (kaizen ask named it)");
  sub->add_option("QUESTION_ID", *id, "the question's id, as kaizen ask printed it")->required();
  sub->add_option("ANSWER", *words, "what the person answered")->required();
  sub->add_option("--session", f->session, "the session it was asked in");
  sub->add_option("--reviewer", f->reviewer, "who answered");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, f, id, words] { return Answer(c, *id, *words, *f); }};
}

}  // namespace kaizen::cli
