// `kaizen rate`: seed 001 tier 2, a 1-5 rating answered with one key ("Single keystroke: 1-5 or
// Enter to skip"), for a task or a session, stored as a `reward` event. Meant for git hooks and
// session-end scripts, so it never waits on a stdin that is not a terminal.
#include <unistd.h>

#include <memory>
#include <string>

#include <fmt/format.h>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "cli/terminal_keys.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "home/loop_store.h"
#include "model/event_writer.h"

namespace kaizen::cli {

using model::ContextField;
using model::EventField;
namespace {

struct RateFlags {
  std::string task, session, question;
  int score = 0;
  CLI::Option* score_opt = nullptr;
  double timeout = 300;
};

enum class Answer { kScore, kSkip, kCancel, kTimeout, kClosed };

// Waits for one meaningful key: 1-5 answers; Enter or Escape skips; Ctrl-C or Ctrl-D cancels;
// other keys are ignored.
Answer ReadKey(double timeout_seconds, int* score) {
  while (true) {
    unsigned char ch = 0;
    switch (ReadOneKey(timeout_seconds, &ch)) {
      case KeyRead::kTimeout:
        return Answer::kTimeout;
      case KeyRead::kClosed:
        return Answer::kClosed;
      case KeyRead::kKey:
        break;
    }
    if (ch >= '1' && ch <= '5') {
      *score = ch - '0';
      return Answer::kScore;
    }
    if (ch == '\r' || ch == '\n' || ch == 0x1b) return Answer::kSkip;
    if (ch == 0x03 || ch == 0x04) return Answer::kCancel;
  }
}

// `question` is what the person saw; empty when the score came from --score (nobody was asked).
int Record(const Common& c, const RateFlags& f, int score, std::string_view question) {
  // seed 001 tier 2: "Task satisfaction" at task completion, "Session productivity" at session
  // end; both 1-5 -> 0.0/0.25/0.5/0.75/1.0, normalized by the pipeline from raw_value.
  const std::string type =
      f.session.empty() || !f.task.empty() ? "satisfaction" : "session_productivity";
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kReward);
    model::Field(w, EventField::signal_type, type);
    model::Key(w, EventField::raw_value);
    w.Int(score);
    model::Field(w, EventField::source, "human");
    if (!f.task.empty()) model::Field(w, EventField::task_id, f.task);
    if (!f.session.empty()) model::Field(w, EventField::session_id, f.session);
    // context (open in the reward schema): how the rating was obtained, so a reader can tell a
    // prompted answer from one passed on the command line, and which question it answered.
    model::Key(w, EventField::context);
    w.StartObject();
    model::Field(w, ContextField::via, "kaizen rate");
    model::Key(w, ContextField::asked);
    w.Bool(!question.empty());
    if (!question.empty()) model::Field(w, EventField::question, question);
    w.EndObject();
  });
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb("rate", now.status());
  auto stored = home::StoreEvent(c, *now, model::EventKind::kReward, event);
  if (!stored.ok()) {
    fmt::print(stderr, "kaizen rate: {}\n", stored.status().message());
    return stored.status().code() == StatusCode::kInvalidArgument ? kExitRejected : kExitSystem;
  }
  if (stored->skipped) {
    fmt::print(stderr, "kaizen rate: skipped, not stored: {}\n", stored->skip_reason);
    return kExitOk;
  }
  const double value = (score - 1) / 4.0;
  if (c.json) {
    fmt::print("{{\"id\":{},\"signal_type\":\"{}\",\"raw_value\":{},\"signal_value\":{}}}\n",
               base::JsonQuote(stored->id), type, score, value);
  } else {
    fmt::print("kaizen rate: recorded {}/5 ({} {:.2f}): {}\n", score, type, value, stored->id);
  }
  return kExitOk;
}

// Nobody was asked (no terminal): nothing is recorded.
int Skipped(const Common& c, std::string_view why) {
  if (c.json) {
    fmt::print("{{\"skipped\":true,\"reason\":{}}}\n", base::JsonQuote(why));
  } else {
    fmt::print(stderr, "kaizen rate: skipped ({}); nothing recorded\n", why);
  }
  return kExitOk;
}

// A person saw `question` and gave no rating: seed 001 measures "filled vs. skipped", so the
// skip is an `admin` event (action skip) beside the ratings. Returns `exit_code` once stored.
int RecordSkip(const Common& c, const RateFlags& f, std::string_view question, std::string_view why,
               int exit_code) {
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kAdmin);
    model::Field(w, EventField::action, "skip");
    model::Field(w, EventField::question, question);
    model::Field(w, EventField::note, why);
    if (!f.task.empty()) model::Field(w, EventField::task_id, f.task);
    if (!f.session.empty()) model::Field(w, EventField::session_id, f.session);
  });
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb("rate", now.status());
  auto stored = home::StoreEvent(c, *now, model::EventKind::kAdmin, event);
  if (!stored.ok()) {
    fmt::print(stderr, "kaizen rate: skipped ({}), and the skip could not be recorded: {}\n", why,
               stored.status().message());
    return stored.status().code() == StatusCode::kInvalidArgument ? kExitRejected : kExitSystem;
  }
  if (c.json) {
    fmt::print("{{\"skipped\":true,\"reason\":{},\"id\":{}}}\n", base::JsonQuote(why),
               base::JsonQuote(stored->id));
  } else {
    fmt::print(stderr, "kaizen rate: skipped ({}); recorded as skipped: {}\n", why, stored->id);
  }
  return exit_code;
}

int RunRate(const Common& c, const RateFlags& f) {
  if (!f.task.empty() && !f.session.empty()) {
    fmt::print(stderr, "kaizen rate: give --task or --session, not both\n");
    return kExitUsage;
  }
  if (f.score_opt->count()) return Record(c, f, f.score, "");
  if (!::isatty(STDIN_FILENO)) return Skipped(c, "standard input is not a terminal");
  std::string question = f.question;
  if (question.empty()) {
    question = !f.session.empty() ? "Rate this session" : "Rate this task";
    if (!f.task.empty()) question += " (" + f.task + ")";
    if (!f.session.empty()) question += " (" + f.session + ")";
  }
  int score = 0;
  Answer answer;
  {
    RawTerminal raw;
    if (!raw.ok()) return Skipped(c, "the terminal cannot be put in raw mode");
    fmt::print(stderr, "{} [1-5, Enter=skip]: ", question);
    std::fflush(stderr);
    answer = ReadKey(f.timeout, &score);
  }
  fmt::print(stderr, "{}\n", answer == Answer::kScore ? std::to_string(score) : "");
  switch (answer) {
    case Answer::kScore:
      return Record(c, f, score, question);
    case Answer::kSkip:
      return RecordSkip(c, f, question, "no rating given", kExitOk);
    case Answer::kTimeout:
      return RecordSkip(c, f, question, fmt::format("no key pressed in {:g} s", f.timeout),
                        kExitOk);
    case Answer::kClosed:  // the session ended under the question: nobody declined
      return Skipped(c, "the terminal closed");
    case Answer::kCancel:  // as a shell reports a command ended by Ctrl-C
      return RecordSkip(c, f, question, "cancelled", 130);
  }
  return kExitOk;
}

}  // namespace

Verb AddRateVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<RateFlags>();
  CLI::App* sub = app.add_subcommand(
      "rate", "ask for a 1-5 rating of a task or session, answered with one key (seed 001 tier 2)");
  sub->add_option("--task", f->task, "the task rated (signal_type satisfaction)");
  sub->add_option("--session", f->session, "the session rated (signal_type session_productivity)");
  sub->add_option("--question", f->question, "the question asked (default: Rate this task)")
      ->check([](const std::string& q) {
        return q.size() > 500 ? std::string("at most 500 bytes") : std::string();
      });
  f->score_opt = sub->add_option("--score", f->score, "record this rating without asking")
                     ->check(CLI::Range(1, 5));
  sub->add_option("--timeout", f->timeout, "seconds to wait for a key before skipping")
      ->check(CLI::Range(0.1, 86400.0))
      ->check(NotNan());
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  sub->footer(
      "Keys: 1-5 record the rating (0.0/0.25/0.5/0.75/1.0); Enter or Escape skips (nothing is "
      "recorded, exit 0); Ctrl-C cancels (exit 130). When standard input is not a terminal it "
      "never waits: it prints that it skipped and exits 0 (or records --score N).\n\n"
      "Example: a git post-commit hook (.git/hooks/post-commit, executable). Hooks get no "
      "terminal on standard input, so hand it the terminal when there is one:\n"
      "  #!/bin/sh\n"
      "  if (: < /dev/tty) 2>/dev/null; then\n"
      "    kaizen rate --task \"$(git rev-parse --short HEAD)\" \\\n"
      "      --question \"How good was this commit?\" < /dev/tty || true\n"
      "  fi\n\n"
      "A session-end script: kaizen rate --session \"$SESSION_ID\"");
  return {sub, [&c, f]() { return RunRate(c, *f); }};
}

}  // namespace kaizen::cli
