// `kaizen rate`: seed 001 tier 2, a 1-5 rating answered with one key ("Single keystroke: 1-5 or
// Enter to skip"), for a task or a session, stored as a `reward` event. Meant for git hooks and
// session-end scripts, so it never waits on a stdin that is not a terminal.
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/clock.h"
#include "cli/json_text.h"
#include "cli/learned_state.h"
#include "cli/loop_store.h"
#include "cli/verbs.h"

namespace kaizen::cli {
namespace {

struct RateFlags {
  std::string task, session, question;
  int score = 0;
  CLI::Option* score_opt = nullptr;
  double timeout = 300;
};

// The terminal's settings before raw mode, for the signal handlers: restoring them is one
// async-signal-safe tcsetattr.
struct termios g_saved;
volatile sig_atomic_t g_raw = 0;

extern "C" void RestoreAndReraise(int sig) {
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
  g_raw = 0;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Raw mode for one key: no line buffering, no echo, and Ctrl-C arrives as a key (ISIG off), so
// every way out goes through the destructor. SIGTERM, SIGHUP, SIGQUIT and a SIGINT sent by
// kill(1) restore the terminal in their handler.
class RawTerminal {
 public:
  RawTerminal() {
    if (::tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
    struct termios raw = g_saved;
    raw.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
    raw.c_iflag &= ~(IXON | ICRNL);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    struct sigaction sa {};
    sa.sa_handler = RestoreAndReraise;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, &old_[Slot(sig)]);
    installed_ = true;
    g_raw = 1;
    if (::tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) g_raw = 0;
    ok_ = g_raw != 0;
  }
  ~RawTerminal() {
    if (g_raw) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);  // also drops unread keys
    g_raw = 0;
    if (!installed_) return;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &old_[Slot(sig)], nullptr);
  }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
  bool ok() const { return ok_; }

 private:
  static int Slot(int sig) {
    return sig == SIGINT ? 0 : sig == SIGTERM ? 1 : sig == SIGHUP ? 2 : 3;
  }
  struct sigaction old_[4]{};
  bool ok_ = false;
  bool installed_ = false;  // old_ holds the handlers to put back
};

enum class Answer { kScore, kSkip, kCancel, kTimeout, kClosed };

// Waits for one meaningful key: 1-5 answers; Enter or Escape skips; Ctrl-C or Ctrl-D cancels;
// other keys are ignored.
Answer ReadKey(double timeout_seconds, int* score) {
  const int timeout_ms = static_cast<int>(timeout_seconds * 1000);
  while (true) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    int ready = ::poll(&p, 1, timeout_ms);
    if (ready == 0) return Answer::kTimeout;
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Answer::kClosed;
    }
    unsigned char ch = 0;
    ssize_t k = ::read(STDIN_FILENO, &ch, 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return Answer::kClosed;
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
  std::string event = fmt::format(
      "{{\"kind\":\"reward\",\"signal_type\":\"{}\",\"raw_value\":{},\"source\":\"human\"", type,
      score);
  if (!f.task.empty()) event += ",\"task_id\":" + JsonQuote(f.task);
  if (!f.session.empty()) event += ",\"session_id\":" + JsonQuote(f.session);
  // context (open in the reward schema): how the rating was obtained, so a reader can tell a
  // prompted answer from one passed on the command line, and which question it answered.
  event += ",\"context\":{\"via\":\"kaizen rate\",\"asked\":";
  event += question.empty() ? "false" : "true";
  if (!question.empty()) event += ",\"question\":" + JsonQuote(question);
  event += "}}";
  auto now = NowMs(c.now);
  if (!now.ok()) return FailVerb("rate", now.status());
  auto stored = StoreEvent(c, *now, model::EventKind::kReward, event);
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
               JsonQuote(stored->id), type, score, value);
  } else {
    fmt::print("kaizen rate: recorded {}/5 ({} {:.2f}): {}\n", score, type, value, stored->id);
  }
  return kExitOk;
}

int Skipped(const Common& c, std::string_view why) {
  if (c.json) {
    fmt::print("{{\"skipped\":true,\"reason\":{}}}\n", JsonQuote(why));
  } else {
    fmt::print(stderr, "kaizen rate: skipped ({}); nothing recorded\n", why);
  }
  return kExitOk;
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
      return Skipped(c, "no rating given");
    case Answer::kTimeout:
      return Skipped(c, fmt::format("no key pressed in {:g} s", f.timeout));
    case Answer::kClosed:
      return Skipped(c, "the terminal closed");
    case Answer::kCancel:
      fmt::print(stderr, "kaizen rate: cancelled; nothing recorded\n");
      return 130;  // as a shell reports a command ended by Ctrl-C
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
