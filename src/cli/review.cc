// `kaizen review`: the review queue from the terminal (issue 29). Without a work id it lists the
// queue in the order the web page gives it; with one and a decision flag it records a complete
// FeedbackEvent for that work's current version; with one and no decision flag, on a terminal,
// it shows the work and asks, one key per answer (review_prompt.cc). --dismiss takes an item out
// of the queue undecided, as an `admin` event that no approval, autonomy or KPI figure counts.
#include "cli/review.h"

#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "cli/terminal_keys.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "home/loop_store.h"
#include "learn/learner.h"
#include "learn/queue_answer.h"
#include "model/event_writer.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::cli {

using model::EventField;
namespace {

constexpr size_t kMaxIdBytes = 256;  // the event model's identifier limit

struct ReviewFlags {
  std::string work_id, version, reviewer, root;
  ReviewAnswer answer;
  std::vector<std::string> scores;  // DIMENSION=N, parsed into answer.scores
  bool approve = false, reject = false, needs_work = false, defer = false, next = false;
  bool reserve = false, release = false;
  int64_t minutes = learn::kDefaultReservationMinutes;
};

// What the queue's order and the review read: the queue, the task types' autonomy, the
// reviewers' windows.
const learn::Parts kReviewParts{learn::Part::kQueue, learn::Part::kAutonomy,
                                learn::Part::kCommunication, learn::Part::kProfiles};

std::string DefaultReviewer() {
  if (const char* env = std::getenv("KAIZEN_REVIEWER"); env != nullptr && *env) return env;
  if (const passwd* pw = ::getpwuid(::geteuid()); pw != nullptr && pw->pw_name[0] != '\0')
    return pw->pw_name;
  if (const char* user = std::getenv("USER"); user != nullptr && *user) return user;
  return "unknown";
}

std::string Age(int64_t ms) {
  const int64_t s = std::max<int64_t>(0, ms) / 1000;
  if (s < 120) return fmt::format("{}s", s);
  if (s < 2 * 3600) return fmt::format("{}m", s / 60);
  if (s < 2 * 86400) return fmt::format("{}h", s / 3600);
  return fmt::format("{}d", s / 86400);
}

// `at_ms` in ISO 8601 at the terminal's UTC offset (TZ): the ingest reads the review's time of
// day from it, so it is the reviewer's, not UTC's.
std::string LocalTimestamp(int64_t at_ms) {
  const time_t t = static_cast<time_t>(at_ms / 1000);
  struct tm local {};
  localtime_r(&t, &local);
  const long offset_minutes = local.tm_gmtoff / 60;
  const long magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}{}{:02}:{:02}", local.tm_year + 1900,
                     local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
                     ((at_ms % 1000) + 1000) % 1000, offset_minutes < 0 ? '-' : '+', magnitude / 60,
                     magnitude % 60);
}

// The reviewer's own hour: the terminal's clock.
learn::QueueAnswer Ranked(const learn::Learner& learner, const std::string& reviewer,
                          int64_t now_ms) {
  return learn::AnswerQueue(learner, reviewer, home::LocalTimeOfDay(now_ms), now_ms);
}

int ListQueue(const Common& c, const home::LearnedState& state, const std::string& reviewer) {
  const learn::Learner& learner = *state.learner;
  const learn::QueueAnswer answer = Ranked(learner, reviewer, state.now_ms);
  const std::vector<learn::RankedItem>& ranked = answer.ranked;
  const learn::QueueMoment& moment = answer.moment;
  if (c.json) {
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    learn::WriteJson(w, learner, answer, std::nullopt);
    fmt::print("{}\n", std::string_view(b.GetString(), b.GetSize()));
    return kExitOk;
  }
  if (ranked.empty()) {
    fmt::print("kaizen review: the queue is empty\n");
    return kExitOk;
  }
  fmt::print("kaizen review: {} item{} waiting, first to review first (now: {})\n", ranked.size(),
             ranked.size() == 1 ? "" : "s", moment.time_of_day);
  size_t n = 0;
  for (const learn::RankedItem& r : ranked) {
    const learn::QueueItem& i = *r.item;
    const std::string_view task = !i.server_type.empty() ? i.server_type : i.type;
    fmt::print("{:>3}  {}  version {}  {}  {} old{}\n", ++n, i.artifact_id, i.version, task,
               Age(state.now_ms - i.at_ms),
               i.priority.empty() ? "" : "  " + std::string(i.priority));
    fmt::print("     {}\n", i.summary);
    fmt::print("     why here: {}\n", r.why);
  }
  fmt::print(
      "review one: kaizen review ID (shows it and asks), or with --approve, --reject, "
      "--needs-work, --defer or --dismiss\n");
  return kExitOk;
}

// The pending version of `id` (the newest when several, or `version`), else the registry's.
std::optional<ReviewTarget> FindTarget(const learn::Learner& learner, const std::string& id,
                                       const std::string& version) {
  const learn::QueueItem* chosen = nullptr;
  const auto& pending = learner.queue().pending();
  for (auto it = pending.lower_bound({id, {}}); it != pending.end() && it->first.first == id;
       ++it) {
    if (version.empty() ? chosen == nullptr || it->second.at_ms >= chosen->at_ms
                        : it->second.version == version) {
      chosen = &it->second;
    }
  }
  ReviewTarget t;
  if (chosen != nullptr) {
    const learn::QueueItem& i = *chosen;
    t = ReviewTarget{std::string(i.artifact_id),
                     std::string(i.version),
                     std::string(i.type),
                     std::string(i.summary),
                     std::string(i.path),
                     std::string(i.commit),
                     std::string(i.diff),
                     std::string(i.stage),
                     std::string(i.server_type),
                     true,
                     i.compare_with};
    return t;
  }
  std::optional<model::WorkView> w = learner.work_registry().Find(id, version);
  if (!w) return std::nullopt;
  t.id = id;
  t.version = std::string(w->version);
  t.type = std::string(w->type);
  t.summary = std::string(w->summary);
  t.stage = std::string(w->stage);
  t.server_type = std::string(w->server_type);
  return t;
}

// DIMENSION=N with N in 1..10 and DIMENSION one of seed 000's quality dimensions.
bool ParseScores(const std::vector<std::string>& given, ReviewAnswer* answer) {
  const auto& dims = model::QualityDimensions();
  for (const std::string& s : given) {
    const size_t eq = s.find('=');
    const std::string dim = s.substr(0, eq);
    if (eq == std::string::npos || std::find(dims.begin(), dims.end(), dim) == dims.end()) {
      std::string known;
      for (std::string_view d : dims) known += (known.empty() ? "" : ", ") + std::string(d);
      fmt::print(stderr,
                 "kaizen review: --score \"{}\": must be DIMENSION=N with DIMENSION one of {}\n", s,
                 known);
      return false;
    }
    const std::string value = s.substr(eq + 1);
    char* end = nullptr;
    const double n = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(n >= 1 && n <= 10)) {
      fmt::print(stderr, "kaizen review: --score \"{}\": the score must be a number from 1 to 10\n",
                 s);
      return false;
    }
    for (const auto& [d, _] : answer->scores) {
      if (d == dim) {
        fmt::print(stderr, "kaizen review: --score \"{}\": {} is scored twice\n", s, dim);
        return false;
      }
    }
    answer->scores.emplace_back(dim, n);
  }
  return true;
}

// `kaizen review --json`'s answer once an event is stored: its id and kind, the work it is about
// and what was recorded.
std::string RecordedJson(std::string_view id, model::EventKind kind, const ReviewTarget& t,
                         std::string_view recorded) {
  return base::JsonObject([&](base::JsonWriter& w) {
    model::Field(w, EventField::id, id);
    model::Kind(w, kind);
    model::Key(w, EventField::workProduct);
    w.StartObject();
    model::Field(w, EventField::id, t.id);
    model::Field(w, EventField::version, t.version);
    w.EndObject();
    base::Field(w, "recorded", recorded);
  });
}

void PrintTarget(const ReviewTarget& t) {
  fmt::print("{} version {} ({}{})\n", t.id, t.version, t.type,
             t.server_type.empty() ? "" : ", task type " + t.server_type);
  fmt::print("  {}\n", t.summary);
  if (!t.path.empty()) fmt::print("  path: {}\n", t.path);
  if (!t.commit.empty()) fmt::print("  change: {}\n", t.commit);
  if (!t.pending) fmt::print("  not in the review queue (reviewed, superseded or dismissed)\n");
  if (!t.diff.empty()) fmt::print("\n{}", t.diff);
}

int Record(const Common& c, int64_t now_ms, const ReviewTarget& target, const ReviewAnswer& answer,
           const ReviewTiming& timing, const std::string& reviewer, const std::string& session_id) {
  const model::EventKind kind =
      answer.dismiss ? model::EventKind::kAdmin : model::EventKind::kFeedback;
  const std::string event =
      ReviewEventJson(target, answer, timing, reviewer, session_id, LocalTimestamp(now_ms));
  Result<home::StoredEvent> stored = home::StoreEvent(c, now_ms, kind, event);
  if (!stored.ok()) {
    fmt::print(stderr, "kaizen review: {}\n", stored.status().message());
    return stored.status().code() == StatusCode::kInvalidArgument ? kExitRejected : kExitSystem;
  }
  if (stored->skipped) {
    fmt::print(stderr, "kaizen review: not stored: {}\n", stored->skip_reason);
    return kExitOk;
  }
  const std::string what = answer.dismiss            ? std::string("dismissed")
                           : answer.decision.empty() ? std::string("reviewed (no decision)")
                                                     : answer.decision;
  if (c.json) {
    fmt::print("{}\n", RecordedJson(stored->id, kind, target, what));
  } else {
    fmt::print("kaizen review: {} {} version {} as {} ({} event {})\n", what, target.id,
               target.version, reviewer, answer.dismiss ? "admin" : "feedback", stored->id);
  }
  return kExitOk;
}

// An admin `reserve` (or `release`) of the target for the reviewer: others' queues leave it out
// while it is open here (learn/reviews/review_queue.h). Quiet unless `say`.
int Reserve(const Common& c, int64_t now_ms, const ReviewTarget& t, const std::string& reviewer,
            bool release, int64_t minutes, bool say) {
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Field(w, EventField::action, release ? "release" : "reserve");
    model::Field(w, EventField::work_id, t.id);
    model::Field(w, EventField::work_version, t.version);
    model::Field(w, EventField::reviewerId, reviewer);
    model::Field(w, EventField::timestamp, LocalTimestamp(now_ms));
    if (!release) {
      model::Key(w, EventField::minutes);
      w.Int64(minutes);
    }
  });
  Result<home::StoredEvent> stored = home::StoreEvent(c, now_ms, model::EventKind::kAdmin, event);
  if (!stored.ok()) {
    fmt::print(stderr, "kaizen review: {}\n", stored.status().message());
    return stored.status().code() == StatusCode::kInvalidArgument ? kExitRejected : kExitSystem;
  }
  if (!say) return kExitOk;
  if (c.json) {
    fmt::print("{}\n", RecordedJson(stored->id, model::EventKind::kAdmin, t,
                                    release ? "released" : "reserved"));
  } else if (release) {
    fmt::print("kaizen review: released {} version {} for {}\n", t.id, t.version, reviewer);
  } else {
    fmt::print("kaizen review: reserved {} version {} for {} for {} minutes\n", t.id, t.version,
               reviewer, minutes);
  }
  return kExitOk;
}

bool OnTerminal() { return ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO); }

int64_t NowOr(const Common& c, int64_t fallback) {
  Result<int64_t> now = home::NowMs(c.now);  // the decision's own moment, not the load's
  return now.ok() ? *now : fallback;
}

// --next: the queue in its order, one item after another, in one review session; after the
// session's fatigue threshold of reviews, seed 000 §3.4's break suggestion.
int ReviewQueueOnTerminal(const Common& c, const home::LearnedState& state,
                          const std::string& reviewer, const std::string& root,
                          const std::string& session_id) {
  const learn::Learner& learner = *state.learner;
  std::vector<ReviewTarget> targets;
  for (const learn::RankedItem& r : Ranked(learner, reviewer, state.now_ms).ranked) {
    targets.push_back(
        *FindTarget(learner, std::string(r.item->artifact_id), std::string(r.item->version)));
  }
  if (targets.empty()) {
    fmt::print("kaizen review: the queue is empty\n");
    return kExitOk;
  }
  const auto break_after = static_cast<size_t>(learner.config().weights.fatigue_after);
  size_t recorded = 0, seen = 0;
  for (const ReviewTarget& t : targets) {
    if (recorded > 0 && recorded == break_after) {
      fmt::print("\n{} [c continue, any other key stops]\n",
                 learn::BreakSuggestion(static_cast<int64_t>(recorded)));
      std::fflush(stdout);
      unsigned char key = 0;
      {
        RawTerminal raw;
        if (!raw.ok() || ReadOneKey(600, &key) != KeyRead::kKey || key != 'c') break;
      }
    }
    fmt::print("\n[{}/{}] ", ++seen, targets.size());
    ReviewAnswer answer;
    ReviewTiming timing;
    // Held while it is on screen, so a second reviewer's queue skips it.
    if (int rc = Reserve(c, NowOr(c, state.now_ms), t, reviewer, false,
                         learn::kDefaultReservationMinutes, false);
        rc != kExitOk) {
      return rc;
    }
    const Asked asked = AskOnTerminal(root, t, &answer, &timing);
    if (asked != Asked::kAnswered) {
      (void)Reserve(c, NowOr(c, state.now_ms), t, reviewer, true, 0, false);
    }
    if (asked == Asked::kCancelled) {
      fmt::print(stderr, "kaizen review: stopped; {} recorded\n", recorded);
      return 130;
    }
    if (asked == Asked::kQuit) break;
    if (asked == Asked::kSkipped) continue;
    if (int rc = Record(c, NowOr(c, state.now_ms), t, answer, timing, reviewer, session_id);
        rc != kExitOk) {
      return rc;
    }
    ++recorded;
  }
  fmt::print("kaizen review: {} recorded, {} left in the queue\n", recorded,
             targets.size() - recorded);
  return kExitOk;
}

int RunReview(Common& c, ReviewFlags& f) {
  ReviewAnswer& a = f.answer;
  if (f.approve) a.decision = "approved";
  if (f.reject) a.decision = "rejected";
  if (f.needs_work) a.decision = "needs-work";
  if (f.defer) a.decision = "deferred";
  if (!ParseScores(f.scores, &a)) return kExitUsage;
  const bool answered = !a.decision.empty() || a.dismiss || !a.scores.empty() || !a.liked.empty() ||
                        !a.disliked.empty() || !a.note.empty() || !a.blockers.empty() ||
                        !a.suggestions.empty() || !a.confidence.empty();
  if (f.work_id.empty() && answered) {
    fmt::print(stderr, "kaizen review: a decision or answer needs the WORK_ID it is for\n");
    return kExitUsage;
  }
  if (a.dismiss && (!a.scores.empty() || !a.blockers.empty() || !a.suggestions.empty() ||
                    !a.liked.empty() || !a.disliked.empty() || !a.confidence.empty())) {
    fmt::print(stderr,
               "kaizen review: --dismiss is not a review: give only --note (why) with it\n");
    return kExitUsage;
  }
  home::LearnedState state;
  if (Status s = home::LoadLearnedState(c, &state, nullptr, kReviewParts); !s.ok())
    return home::FailVerb("review", s);
  home::WarnUnreadable(state.scan);
  if (f.reviewer.empty()) f.reviewer = DefaultReviewer();
  const std::string session_id =
      "terminal-" + std::string(model::NewUuidV7(state.now_ms).ToString());
  if (f.next) {
    if (!OnTerminal()) {
      fmt::print(stderr, "kaizen review: --next asks on a terminal, and this is not one\n");
      return kExitUsage;
    }
    return ReviewQueueOnTerminal(c, state, f.reviewer, f.root, session_id);
  }
  if (f.work_id.empty()) return ListQueue(c, state, f.reviewer);

  std::optional<ReviewTarget> target = FindTarget(*state.learner, f.work_id, f.version);
  if (!target) {
    fmt::print(stderr,
               "kaizen review: no recorded work product \"{}\"{} (kaizen review lists the "
               "queue)\n",
               f.work_id, f.version.empty() ? "" : " version \"" + f.version + "\"");
    return kExitUsage;
  }
  if ((f.reserve || f.release) && (answered || f.next)) {
    fmt::print(stderr, "kaizen review: --reserve and --release stand alone (no decision)\n");
    return kExitUsage;
  }
  if (f.reserve || f.release) {
    if (!target->pending) {
      fmt::print(stderr, "kaizen review: {} version {} is not in the review queue\n", target->id,
                 target->version);
      return kExitRejected;
    }
    return Reserve(c, NowOr(c, state.now_ms), *target, f.reviewer, f.release, f.minutes, true);
  }
  if (a.dismiss && !target->pending) {
    fmt::print(stderr,
               "kaizen review: {} version {} is not in the review queue: nothing to dismiss\n",
               target->id, target->version);
    return kExitRejected;
  }
  if (answered) {
    ReviewTiming timing;  // nothing was shown or timed
    return Record(c, state.now_ms, *target, a, timing, f.reviewer, session_id);
  }
  if (!OnTerminal()) {
    PrintTarget(*target);
    fmt::print(stderr,
               "kaizen review: not a terminal, so nothing asked: record with --approve, "
               "--reject, --needs-work, --defer or --dismiss\n");
    return kExitOk;
  }
  ReviewAnswer answer;
  ReviewTiming timing;
  if (target->pending) {
    if (int rc = Reserve(c, NowOr(c, state.now_ms), *target, f.reviewer, false,
                         learn::kDefaultReservationMinutes, false);
        rc != kExitOk) {
      return rc;
    }
  }
  const Asked asked = AskOnTerminal(f.root, *target, &answer, &timing);
  if (asked != Asked::kAnswered) {
    if (target->pending)
      (void)Reserve(c, NowOr(c, state.now_ms), *target, f.reviewer, true, 0, false);
    fmt::print(stderr, "kaizen review: nothing recorded\n");
    return asked == Asked::kCancelled ? 130 : kExitOk;
  }
  return Record(c, NowOr(c, state.now_ms), *target, answer, timing, f.reviewer, session_id);
}

CLI::Validator MaxBytes(size_t n) {
  return CLI::Validator(
      [n](std::string& v) {
        return v.size() > n ? fmt::format("{} bytes; at most {}", v.size(), n) : std::string();
      },
      "", "");
}

}  // namespace

Verb AddReviewVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<ReviewFlags>();
  CLI::App* sub = app.add_subcommand(
      "review", "the review queue, and reviews from the terminal (list, decide, or be asked)");
  sub->add_option("WORK_ID", f->work_id, "the work product to review (as kaizen review lists it)")
      ->check(MaxBytes(kMaxIdBytes));
  sub->add_option("--version", f->version, "its version (default: the newest in the queue)")
      ->check(MaxBytes(kMaxIdBytes));
  CLI::Option* approve = sub->add_flag("--approve", f->approve, "decision: approved");
  CLI::Option* reject = sub->add_flag("--reject", f->reject, "decision: rejected");
  CLI::Option* needs = sub->add_flag("--needs-work", f->needs_work, "decision: needs-work");
  CLI::Option* defer = sub->add_flag("--defer", f->defer, "decision: deferred (stays queued)");
  CLI::Option* dismiss = sub->add_flag(
      "--dismiss", f->answer.dismiss,
      "take it out of the queue undecided (stale, duplicate): an admin event, no decision");
  const std::vector<CLI::Option*> decisions = {approve, reject, needs, defer, dismiss};
  for (CLI::Option* o : decisions) {
    for (CLI::Option* other : decisions) {
      if (o != other) o->excludes(other);
    }
  }
  sub->add_option("--score", f->scores, "a dimension's score, e.g. --score correctness=8 (1-10)");
  sub->add_option("--reason", f->answer.reason, "why this decision")->check(MaxBytes(16384));
  sub->add_option("--liked", f->answer.liked, "what was good")->check(MaxBytes(16384));
  sub->add_option("--disliked", f->answer.disliked, "what was not")->check(MaxBytes(16384));
  sub->add_option("--note", f->answer.note, "general notes (with --dismiss: why)")
      ->check(MaxBytes(16384));
  sub->add_option("--blocker", f->answer.blockers, "what must change before it can ship")
      ->check(MaxBytes(16384));
  sub->add_option("--suggest", f->answer.suggestions, "a suggested change")->check(MaxBytes(16384));
  sub->add_option("--severity", f->answer.severity, "of the problems")
      ->check(CLI::IsMember({"minor", "moderate", "major", "critical"}));
  sub->add_option("--confidence", f->answer.confidence, "how sure you are of this review")
      ->check(CLI::IsMember({"very-unsure", "somewhat-unsure", "fairly-sure", "very-sure"}));
  sub->add_flag("--would-delegate", f->answer.would_delegate,
                "with --confidence: you would let the agent do this unreviewed");
  sub->add_flag("--needs-expert", f->answer.needs_expert,
                "with --confidence: this needs an expert's review");
  sub->add_option("--reviewer", f->reviewer,
                  "who reviews (default: $KAIZEN_REVIEWER, else your login name)")
      ->check(MaxBytes(kMaxIdBytes));
  CLI::Option* reserve = sub->add_flag(
      "--reserve", f->reserve,
      "hold WORK_ID for --reviewer: others' queues leave it out until you decide, release it or "
      "--minutes pass (kaizen review WORK_ID on a terminal does it while it asks)");
  sub->add_flag("--release", f->release, "let go of a reservation of WORK_ID")->excludes(reserve);
  sub->add_option("--minutes", f->minutes, "with --reserve: how long (default 30)")
      ->check(CLI::Range(int64_t{1}, int64_t{1440}));
  sub->add_flag("--next", f->next,
                "on a terminal: review the queue in order, one item after another (q stops)");
  sub->add_option("--root", f->root,
                  "where the work's paths are read from (default: the current directory)");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  sub->footer(
      "Without WORK_ID: the queue, first to review first, with each item's age and why it is "
      "there.\nWith WORK_ID and a decision flag: a FeedbackEvent for that work's current version "
      "(its newest in the queue). The terminal cannot time a decision made with flags, so "
      "meta.timeToDecisionMs is absent and meta.unmeasured says so: it counts in no speed "
      "figure.\nWith WORK_ID and no decision flag, on a terminal: the work is shown (summary, "
      "the agent's diff) and asked: a approve, r reject, n needs work, d defer, x dismiss, s "
      "skip, q quit; then the confidence (1-4) and a note, each skippable with Enter. The item is "
      "reserved for you while it is asked (others' queues leave it out).\n"
      "Exit status: 0 recorded (or listed, shown, skipped); 1 refused; 2 usage; 3 the system "
      "failed; 130 quit with Ctrl-C.");
  return {sub, [&c, f] { return RunReview(c, *f); }};
}

}  // namespace kaizen::cli
