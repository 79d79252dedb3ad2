// `kaizen loop --evaluate CMD --refine CMD`: seed 003's refinement loop around the user's own
// commands. Each iteration evaluates (QualityMetrics JSON on stdout, or JUnit/lcov/Cobertura
// reports), decides HALT / CONTINUE / ABORT with learn::Evaluate, records the iteration as a
// `loop` event through the Ingestor, and on CONTINUE hands the feedback to the refine command.
#include <simdjson.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "base/subprocess.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "home/log_views.h"
#include "home/loop_store.h"
#include "learn/outcomes/loop_control.h"
#include "model/event_writer.h"
#include "model/uuid.h"
#include "render/loop_feedback.h"
#include "signals/junit.h"
#include "signals/report_metrics.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::cli {

using model::EventField;
namespace {

// Evaluate output kept: QualityMetrics JSON is small; a chatty test runner's output past this is
// read and dropped (and the metrics, if expected there, refused as truncated).
constexpr size_t kMaxEvaluateOutput = 1 << 20;

struct LoopFlags {
  std::string evaluate, refine, loop_id, junit, lcov, cobertura;
  CLI::Option *max_iterations_opt = nullptr, *max_cost_opt = nullptr, *max_seconds_opt = nullptr;
  int64_t max_iterations = 0;
  double max_cost = 0, max_seconds = 0;
};

// Text safe to embed in a stored event: child output may be any bytes.
std::string Printable(std::string_view s, size_t cap) {
  std::string out(s.substr(0, cap));
  if (!simdjson::validate_utf8(out.data(), out.size())) {
    for (char& ch : out)
      if (static_cast<unsigned char>(ch) >= 0x80) ch = '?';
  }
  return out;
}

std::string Tail(std::string_view s, size_t n) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  return Printable(s.size() > n ? s.substr(s.size() - n) : s, n);
}

// How a report file looked before the evaluate command ran: it must be written again.
struct FileStamp {
  bool exists = false;
  int64_t mtime_ns = 0, size = 0;
  uint64_t inode = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp Stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec, st.st_size, st.st_ino};
}

// One report named on the command line.
struct ReportFile {
  std::string flag, path;
  FileStamp before;
};

// What one evaluation measured.
struct Measured {
  model::LoopMetricsView metrics;
  double cost = 0;
  std::optional<signals::TestReport> tests;         // from --junit
  std::optional<signals::CoverageReport> coverage;  // from --lcov / --cobertura
};

// Why the loop stopped without a decision of the rules (a child or a report failed).
struct LoopFailure {
  std::string reason;      // the halt_reason printed: evaluate_failed, refine_failed, ...
  std::string error_type;  // the `error` event's: tool_failure, timeout, validation
  std::string tool;        // evaluate | refine
  std::string message;
};

class LoopRun {
 public:
  LoopRun(const Common& c, const LoopFlags& f, learn::LoopConfig config)
      : c_(c), f_(f), config_(config) {}

  int Run();

 private:
  Result<bool> LoopIdRecorded() const;
  // Evaluates iteration `n`; a failure is returned in *failure (the status is for system errors).
  Status Evaluate(int64_t n, Measured* out, std::optional<LoopFailure>* failure);
  Status Refine(int64_t n, const std::string& feedback, std::optional<LoopFailure>* failure);
  // The failure of an evaluation that measured none of the six Q(HALT) metrics, naming what it
  // gave (`reports`: the report flags read, "" for JSON output) and what is missing.
  LoopFailure NoMetric(const model::LoopMetricsView& m, std::string_view reports) const;
  Result<std::string> RecordIteration(int64_t n, const model::LoopMetricsView& m, double cost,
                                      double elapsed, const std::string& feedback);
  Status RecordFailure(const LoopFailure& failure, int64_t n);
  double Remaining() const;
  std::vector<std::string> Env(int64_t n) const;
  void Finish(const learn::LoopMetrics& metrics, std::string_view action,
              const std::optional<LoopFailure>& failure) const;

  const Common& c_;
  const LoopFlags& f_;
  learn::LoopConfig config_;
  std::string loop_id_;
  std::chrono::steady_clock::time_point start_;
  std::vector<learn::IterationSummary> history_;
  std::vector<std::string> event_ids_;
};

double LoopRun::Remaining() const {
  double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return std::max(0.001, config_.max_seconds - used);
}

std::vector<std::string> LoopRun::Env(int64_t n) const {
  return {"KAIZEN_ITERATION=" + std::to_string(n), "KAIZEN_LOOP_ID=" + loop_id_,
          "KAIZEN_HOME=" + c_.home};
}

Result<bool> LoopRun::LoopIdRecorded() const {
  store::RawLog log(c_.home, store::DefaultFileSystem());
  bool found = false;
  home::LogScan scan;
  KZ_RETURN_IF_ERROR(ReadLogViews(
      log,
      [&](learn::EventViews& e) {
        if (e.kind == model::EventKind::kLoop && e.loop.loop_id == loop_id_) found = true;
      },
      &scan));
  return found;
}

Status LoopRun::Evaluate(int64_t n, Measured* out, std::optional<LoopFailure>* failure) {
  std::vector<ReportFile> reports;
  if (!f_.junit.empty()) reports.push_back({"--junit", f_.junit, {}});
  if (!f_.lcov.empty()) reports.push_back({"--lcov", f_.lcov, {}});
  if (!f_.cobertura.empty()) reports.push_back({"--cobertura", f_.cobertura, {}});
  for (ReportFile& r : reports) r.before = Stamp(r.path);

  base::Subprocess spec;
  spec.argv = {"/bin/sh", "-c", f_.evaluate};
  spec.env = Env(n);
  spec.timeout_seconds = Remaining();
  spec.output_cap = kMaxEvaluateOutput;
  spec.stderr_to = base::Subprocess::Stderr::kInherited;  // its complaints are the user's to see
  KZ_ASSIGN_OR_RETURN(base::SubprocessResult child, base::RunSubprocess(spec));
  auto fail = [&](std::string type, std::string message) {
    *failure = LoopFailure{"evaluate_failed", std::move(type), "evaluate", std::move(message)};
    return Status::Ok();
  };
  if (child.interrupted) {
    *failure = LoopFailure{"interrupted", "tool_failure", "evaluate",
                           "interrupted (SIGINT or SIGTERM) while the evaluate command ran"};
    return Status::Ok();
  }
  if (child.timed_out) {
    *failure = LoopFailure{"time_limit", "timeout", "evaluate",
                           fmt::format("the evaluate command {} (the loop's --max-seconds "
                                       "budget of {} s was used up)",
                                       child.Outcome(spec.timeout_seconds), config_.max_seconds)};
    return Status::Ok();
  }
  if (reports.empty()) {
    if (!child.succeeded()) {
      return fail("tool_failure",
                  fmt::format("the evaluate command failed ({}); its output ended: {}",
                              child.Outcome(0), Tail(child.out, 300)));
    }
    if (child.out_truncated) {
      return fail("validation", fmt::format("the evaluate command printed more than {} bytes; "
                                            "QualityMetrics JSON is expected",
                                            kMaxEvaluateOutput));
    }
    auto parsed = signals::ParseEvaluateOutput(child.out);
    if (!parsed.ok()) return fail("validation", parsed.status().message());
    out->metrics = parsed->metrics;
    out->cost = parsed->cost.value_or(0);
    if (learn::Measured(out->metrics, config_) == 0) *failure = NoMetric(out->metrics, "");
    return Status::Ok();
  }
  // With reports, a nonzero exit is expected (test runners exit 1 when a test fails); the reports
  // must be there and written by this run.
  if (child.signal != 0) {
    return fail("tool_failure", fmt::format("the evaluate command was {}", child.Outcome(0)));
  }
  for (const ReportFile& r : reports) {
    FileStamp after = Stamp(r.path);
    std::string exit_note =
        child.exit_code == 0
            ? std::string()
            : fmt::format(" (the evaluate command ended with {})", child.Outcome(0));
    if (!after.exists) {
      return fail("validation", fmt::format("{} {}: no such file after the evaluate command ran{}",
                                            r.flag, r.path, exit_note));
    }
    if (after == r.before) {
      return fail("validation",
                  fmt::format("{} {}: not written by the evaluate command (unchanged since "
                              "before it ran){}",
                              r.flag, r.path, exit_note));
    }
    std::error_code ec;
    uintmax_t size = std::filesystem::file_size(r.path, ec);
    if (!ec && size > signals::kMaxReportBytes) {
      return fail("validation", fmt::format("{} {}: {} bytes is over the report size limit of "
                                            "{} bytes",
                                            r.flag, r.path, size, signals::kMaxReportBytes));
    }
    auto text = store::DefaultFileSystem()->ReadFrom(r.path, 0);
    if (!text.ok())
      return fail("validation", fmt::format("{}: {}", r.flag, text.status().message()));
    if (r.flag == "--junit") {
      auto t = signals::ParseJUnit(*text, r.path);
      if (!t.ok()) return fail("validation", t.status().message());
      out->tests = std::move(t).value();
    } else {
      auto cov = signals::ParseCoverage(*text, r.path);
      if (!cov.ok()) return fail("validation", cov.status().message());
      out->coverage = std::move(cov).value();
    }
  }
  out->metrics = signals::MetricsFromReports(out->tests ? &*out->tests : nullptr,
                                             out->coverage ? &*out->coverage : nullptr);
  if (learn::Measured(out->metrics, config_) == 0) {
    std::string given;
    for (const ReportFile& r : reports)
      given += fmt::format("{}{} {}", given.empty() ? "" : ", ", r.flag, r.path);
    *failure = NoMetric(out->metrics, given);
  }
  return Status::Ok();
}

LoopFailure LoopRun::NoMetric(const model::LoopMetricsView& m, std::string_view reports) const {
  const learn::MeasuredMetrics all = learn::kAllHaltMetrics;
  std::string got = signals::Empty(m) ? std::string("nothing") : signals::QualityMetricsJson(m);
  if (!reports.empty()) got += " from " + std::string(reports);
  return LoopFailure{
      "no_metric", "validation", "evaluate",
      fmt::format("the evaluate command {} reported no metric Q(HALT) weighs (it gave {}); "
                  "missing: {}. Print QualityMetrics JSON with at least one of them (a metric "
                  "weighted 0 in loop.weight_* does not count), or name the reports it writes "
                  "with --junit (tests_passing) and --lcov or --cobertura (test_coverage); an "
                  "iteration with no metric has no quality, it is not quality 0",
                  base::JsonQuote(f_.evaluate), got, learn::MetricNames(all))};
}

Status LoopRun::Refine(int64_t n, const std::string& feedback,
                       std::optional<LoopFailure>* failure) {
  base::Subprocess spec;
  spec.argv = {"/bin/sh", "-c", f_.refine};
  spec.env = Env(n);
  spec.env.push_back("KAIZEN_FEEDBACK=" + feedback);
  spec.input = feedback;
  spec.timeout_seconds = Remaining();
  spec.stdout_to_our_stderr = true;  // its progress is the user's to see; our stdout stays ours
  spec.stderr_to = base::Subprocess::Stderr::kInherited;
  KZ_ASSIGN_OR_RETURN(base::SubprocessResult child, base::RunSubprocess(spec));
  if (child.interrupted) {
    *failure = LoopFailure{"interrupted", "tool_failure", "refine",
                           "interrupted (SIGINT or SIGTERM) while the refine command ran"};
  } else if (child.timed_out) {
    *failure = LoopFailure{"time_limit", "timeout", "refine",
                           fmt::format("the refine command {} (the loop's --max-seconds budget of "
                                       "{} s was used up)",
                                       child.Outcome(spec.timeout_seconds), config_.max_seconds)};
  } else if (!child.succeeded()) {
    *failure = LoopFailure{"refine_failed", "tool_failure", "refine",
                           fmt::format("the refine command failed ({})", child.Outcome(0))};
  }
  return Status::Ok();
}

Result<std::string> LoopRun::RecordIteration(int64_t n, const model::LoopMetricsView& m,
                                             double cost, double elapsed,
                                             const std::string& feedback) {
  const std::string metrics = signals::QualityMetricsJson(m);
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kLoop);
    model::Field(w, EventField::loop_id, loop_id_);
    model::Key(w, EventField::iteration);
    w.Int64(n);
    model::Key(w, EventField::metrics);
    w.RawValue(metrics.data(), metrics.size(), rapidjson::kObjectType);
    model::Key(w, EventField::cost);
    w.Double(cost);
    model::Key(w, EventField::elapsed_seconds);
    w.Double(elapsed);
    model::Field(w, EventField::feedback, feedback);
  });
  KZ_ASSIGN_OR_RETURN(int64_t now, home::NowMs(""));
  KZ_ASSIGN_OR_RETURN(home::StoredEvent stored,
                      home::StoreEvent(c_, now, model::EventKind::kLoop, event));
  return stored.id;
}

Status LoopRun::RecordFailure(const LoopFailure& failure, int64_t n) {
  const std::string command = failure.tool == "evaluate" ? f_.evaluate : f_.refine;
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kError);
    model::Field(w, EventField::bead_id, loop_id_);
    model::Field(w, EventField::error_type, failure.error_type);
    model::Field(w, EventField::tool_name, "kaizen loop --" + failure.tool);
    model::Field(w, EventField::message, Printable(failure.message, 4000));
    model::Field(w, EventField::context,
                 Printable(fmt::format("iteration {}: {}", n, command), 4000));
  });
  KZ_ASSIGN_OR_RETURN(int64_t now, home::NowMs(""));
  auto stored = home::StoreEvent(c_, now, model::EventKind::kError, event);
  if (!stored.ok()) return stored.status();
  if (!stored->id.empty()) event_ids_.push_back(stored->id);
  return Status::Ok();
}

void LoopRun::Finish(const learn::LoopMetrics& m, std::string_view action,
                     const std::optional<LoopFailure>& failure) const {
  // What the last iteration's Q(HALT) rests on (none measured when no iteration was recorded).
  const learn::MeasuredMetrics measured = history_.empty() ? 0 : history_.back().measured;
  const learn::MeasuredMetrics missing = history_.empty() ? 0 : learn::kAllHaltMetrics & ~measured;
  if (c_.json) {
    std::string progression, ids, names[2];
    for (double q : m.quality_progression)
      progression += fmt::format("{}{}", progression.empty() ? "" : ",", q);
    for (const std::string& id : event_ids_) ids += (ids.empty() ? "" : ",") + base::JsonQuote(id);
    const learn::MeasuredMetrics sets[2] = {measured, missing};
    for (size_t k = 0; k < 2; ++k) {
      for (size_t i = 0; i < learn::kHaltMetricCount; ++i) {
        const auto which = static_cast<learn::HaltMetric>(i);
        if (!learn::Has(sets[k], which)) continue;
        names[k] +=
            fmt::format("{}\"{}\"", names[k].empty() ? "" : ",", learn::HaltMetricName(which));
      }
    }
    fmt::print(
        "{{\"loop_id\":{},\"action\":\"{}\",\"halt_reason\":{},\"iterations\":{},"
        "\"total_time\":{},\"quality_progression\":[{}],\"stagnation_detected\":{},\"cost\":{},"
        "\"measured\":[{}],\"missing\":[{}],\"error\":{},\"events\":[{}]}}\n",
        base::JsonQuote(loop_id_), action, base::JsonQuote(m.halt_reason), m.iterations,
        m.total_time, progression, m.stagnation_detected, m.cost, names[0], names[1],
        failure ? base::JsonQuote(failure->message) : std::string("null"), ids);
    return;
  }
  std::string progression;
  for (double q : m.quality_progression)
    progression += fmt::format("{}{:.3f}", progression.empty() ? "" : " -> ", q);
  fmt::print("loop {}: {} ({}) after {} iteration{}\n", loop_id_, action, m.halt_reason,
             m.iterations, m.iterations == 1 ? "" : "s");
  fmt::print("  quality progression: {}\n", progression.empty() ? "(none)" : progression);
  fmt::print("  total time: {:.1f} s, cost: ${:.2f}, stagnation detected: {}\n", m.total_time,
             m.cost, m.stagnation_detected ? "yes" : "no");
  if (measured != 0) {
    fmt::print("  Q(HALT) over {}{}{}{}\n", learn::MetricNames(measured),
               missing == 0 ? "" : " (not measured, left out: ", learn::MetricNames(missing),
               missing == 0 ? "" : ")");
  }
  if (failure) fmt::print("  error: {}\n", failure->message);
}

int LoopRun::Run() {
  if (!f_.loop_id.empty()) {
    loop_id_ = f_.loop_id;
    auto recorded = LoopIdRecorded();
    if (!recorded.ok()) return home::FailVerb("loop", recorded.status());
    if (*recorded) {
      fmt::print(stderr,
                 "kaizen loop: --loop-id {}: the log already holds iterations of this loop; give "
                 "a new id (or none: one is generated)\n",
                 loop_id_);
      return kExitUsage;
    }
  } else {
    auto now = home::NowMs("");
    if (!now.ok()) return home::FailVerb("loop", now.status());
    loop_id_ = "loop-" + model::NewUuidV7(*now).ToString();
  }
  base::InterruptGuard signals_to_child;
  start_ = std::chrono::steady_clock::now();
  auto mark = start_;
  learn::LoopEvaluation evaluation;
  std::optional<LoopFailure> failure;
  int64_t n = 0;
  while (true) {
    ++n;
    Measured m;
    if (Status s = Evaluate(n, &m, &failure); !s.ok()) return home::FailVerb("loop", s);
    if (failure) break;
    auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - mark).count();
    mark = now;
    std::string feedback = render::FeedbackText(m.metrics, m.tests ? &*m.tests : nullptr,
                                                m.coverage ? &*m.coverage : nullptr, config_);
    learn::LoopIteration it;
    it.iteration = n;
    it.metrics = m.metrics;
    it.cost = m.cost;
    it.elapsed_seconds = elapsed;
    it.feedback = feedback;
    history_.push_back(learn::Summarize(it, config_));
    evaluation = learn::Evaluate(history_, config_);
    auto id = RecordIteration(n, m.metrics, m.cost, elapsed, feedback);
    if (!id.ok()) {
      fmt::print(stderr, "kaizen loop: iteration {} was not recorded: {}\n", n,
                 id.status().message());
      return id.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
    }
    if (!id->empty()) event_ids_.push_back(*id);
    const learn::LoopDecision& d = evaluation.decision;
    if (!c_.json) {
      fmt::print(stderr, "kaizen loop: iteration {}: Q(HALT) {:.3f} -> {}{}\n", n, d.q_halt,
                 learn::ActionName(d.action), d.reason.empty() ? "" : " (" + d.reason + ")");
    }
    if (d.action != learn::LoopAction::kContinue) break;
    if (Status s = Refine(n, feedback, &failure); !s.ok()) return home::FailVerb("loop", s);
    if (failure) break;
  }
  learn::LoopMetrics metrics = learn::Metrics(history_, evaluation);
  // The failed step's time counts too.
  metrics.total_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (failure) {
    metrics.halt_reason = failure->reason;
    fmt::print(stderr, "kaizen loop: iteration {}: {}\n", n, failure->message);
    if (Status s = RecordFailure(*failure, n); !s.ok()) {
      fmt::print(stderr, "kaizen loop: the failure was not recorded: {}\n", s.message());
      Finish(metrics, "ABORT", failure);
      return kExitSystem;
    }
    Finish(metrics, "ABORT", failure);
    return kExitRejected;
  }
  const learn::LoopAction action = evaluation.decision.action;
  Finish(metrics, learn::ActionName(action), failure);
  return action == learn::LoopAction::kHalt ? kExitOk : kExitRejected;
}

}  // namespace

Verb AddLoopVerb(CLI::App& app, Common& c) {
  auto flags = std::make_shared<LoopFlags>();
  CLI::App* sub = app.add_subcommand(
      "loop",
      "run the seed 003 refinement loop: evaluate, decide HALT/CONTINUE/ABORT, refine, repeat");
  sub->footer(
      "Each iteration runs the evaluate command (/bin/sh -c, stdin /dev/null). It prints seed 003 "
      "QualityMetrics JSON on stdout ({\"test_coverage\":0.8,\"tests_passing\":true,...}, or "
      "{\"metrics\":{...},\"cost\":0.12}), or writes the reports named by --junit/--lcov/"
      "--cobertura (then: tests_passing = a test ran and none failed, test_count = test cases, "
      "test_coverage = line coverage; its exit status may be nonzero). Q(HALT) weighs the "
      "metrics measured: seed 003's weights renormalized over them (the seed's sum when all six "
      "are there); an evaluation measuring none of test_coverage, tests_passing, security_score, "
      "code_quality_score, doc_coverage, type_coverage is an error (no_metric), not quality 0, "
      "and only tests_passing or test_coverage can let quality halt the loop. On CONTINUE the "
      "refine "
      "command gets the feedback on stdin and in KAIZEN_FEEDBACK; both commands see "
      "KAIZEN_ITERATION, KAIZEN_LOOP_ID and KAIZEN_HOME. Every iteration is stored as a `loop` "
      "event; a failed command or report as an `error` event (bead_id = the loop id).\n"
      "Exit status: 0 HALT; 1 ABORT (a rule, a failed command or report, interrupted); 2 usage; "
      "3 the log could not be written.\n");
  sub->add_option("--evaluate", flags->evaluate, "the command that measures quality")->required();
  sub->add_option("--refine", flags->refine, "the command that improves the work")->required();
  flags->max_iterations_opt =
      sub->add_option("--max-iterations", flags->max_iterations,
                      "halt at this iteration (default: loop.max_iterations, seed 003: 5)")
          ->check(CLI::Range(int64_t{1}, int64_t{1000}));
  flags->max_cost_opt =
      sub->add_option("--max-cost", flags->max_cost,
                      "abort once the iterations' cost passes this many dollars (default "
                      "loop.max_cost: 5)")
          ->check(CLI::Range(0.0, 1e9))
          ->check(NotNan());
  flags->max_seconds_opt =
      sub->add_option("--max-seconds", flags->max_seconds,
                      "abort past this many seconds in all; also the most any one command may "
                      "run (default loop.max_seconds: 1800)")
          ->check(CLI::Range(0.001, 1e9))
          ->check(NotNan());
  sub->add_option("--loop-id", flags->loop_id,
                  "the loop's id in the log (default: loop-<uuid>); must be new");
  sub->add_option("--junit", flags->junit, "read tests from this JUnit XML file after evaluating");
  auto* lcov = sub->add_option("--lcov", flags->lcov,
                               "read coverage from this lcov tracefile after evaluating");
  auto* cob = sub->add_option("--cobertura", flags->cobertura,
                              "read coverage from this Cobertura XML file after evaluating");
  lcov->excludes(cob);
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/false);
  return {sub, [&c, flags]() {
            if (flags->evaluate.empty() || flags->refine.empty()) {
              fmt::print(stderr, "kaizen loop: --evaluate and --refine must not be empty\n");
              return kExitUsage;
            }
            if (flags->loop_id.size() > 256) {
              fmt::print(stderr, "kaizen loop: --loop-id is {} bytes; at most 256\n",
                         flags->loop_id.size());
              return kExitUsage;
            }
            learn::LearnConfig config;
            if (Status s = home::LoadLearnConfig(c.home, &config); !s.ok())
              return home::FailVerb("loop", s);
            // The flags override the home's limits for this run only.
            if (flags->max_iterations_opt->count())
              config.loop.max_iterations = static_cast<double>(flags->max_iterations);
            if (flags->max_cost_opt->count()) config.loop.max_cost = flags->max_cost;
            if (flags->max_seconds_opt->count()) config.loop.max_seconds = flags->max_seconds;
            return LoopRun(c, *flags, config.loop).Run();
          }};
}

}  // namespace kaizen::cli
