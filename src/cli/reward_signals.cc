// `kaizen reward ci` and `kaizen reward coverage`: seed 001 tier 1 automatic reward signals from
// a CI run (a JUnit report or an exit code) and from two coverage reports (the coverage delta),
// stored as `reward` events through the one pipeline, which normalizes raw_value by seed 001's
// table (ingest/reward_normalize.cc).
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <simdjson.h>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "base/utf8.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "home/loop_store.h"
#include "model/event_writer.h"
#include "model/limits.h"
#include "signals/git_reward.h"
#include "signals/junit.h"
#include "signals/report_metrics.h"
#include "store/file_system.h"

namespace kaizen::cli {

using model::ContextField;
using model::EventField;
namespace {

struct RewardFlags {
  std::string junit, task, agent, session, commit, before, after;
  int exit_code = 0;
  CLI::Option* exit_code_opt = nullptr;
};

// The file's bytes, refused over the report cap before reading.
Result<std::string> ReadReport(const std::string& path, std::string_view what) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return InvalidArgument(fmt::format("{} {}: {}", what, path, ec.message()));
  if (size > signals::kMaxReportBytes) {
    return InvalidArgument(fmt::format("{} {}: {} bytes is over the report size limit of {} bytes",
                                       what, path, size, signals::kMaxReportBytes));
  }
  auto text = store::DefaultFileSystem()->ReadFrom(path, 0);
  if (!text.ok())
    return InvalidArgument(fmt::format("{} {}: {}", what, path, text.status().message()));
  return text;
}

// A reward event: the RewardSignal fields of seed 001, the optional ones the flags give, then
// `context`, where the signal came from (the reward schema's open context object): the verb, the
// agent whose work it is, and what `extra` writes (the report files, as given on the command line,
// or the exit code).
template <typename RawValue, typename Extra>
std::string RewardEvent(const RewardFlags& f, std::string_view signal_id,
                        std::string_view signal_type, RawValue&& raw_value, std::string_view via,
                        Extra&& extra) {
  return base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kReward);
    model::Field(w, EventField::signal_id, signal_id);
    model::Field(w, EventField::signal_type, signal_type);
    model::Key(w, EventField::raw_value);
    raw_value(w);
    model::Field(w, EventField::source, "automatic");
    if (!f.task.empty()) model::Field(w, EventField::task_id, f.task);
    if (!f.session.empty()) model::Field(w, EventField::session_id, f.session);
    if (!f.commit.empty()) model::Field(w, EventField::commit_hash, f.commit);
    model::Key(w, EventField::context);
    w.StartObject();
    model::Field(w, ContextField::via, via);
    if (!f.agent.empty()) model::Field(w, EventField::agent, f.agent);
    extra(w);
    w.EndObject();
  });
}

// What the signal is ("ci:junit:<file name>", "coverage:<format>:<before>..<after>"), within the
// identifier limit; the agent and the full report paths are in `context`.
std::string SignalId(std::string_view what) {
  return std::string(base::Utf8Prefix(what, model::kMaxIdentifierBytes));
}

int Store(const Common& c, std::string_view verb, const std::string& event,
          const std::string& summary, std::string_view json_extra) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb(verb, now.status());
  auto stored = home::StoreEvent(c, *now, model::EventKind::kReward, event);
  if (!stored.ok()) {
    fmt::print(stderr, "kaizen {}: {}\n", verb, stored.status().message());
    return stored.status().code() == StatusCode::kInvalidArgument ? kExitRejected : kExitSystem;
  }
  if (stored->skipped) {
    fmt::print(stderr, "kaizen {}: skipped, not stored: {}\n", verb, stored->skip_reason);
    return kExitOk;
  }
  if (c.json) {
    fmt::print("{{\"id\":{}{}}}\n", base::JsonQuote(stored->id), json_extra);
  } else {
    fmt::print("{}\n{}\n", stored->id, summary);
  }
  return kExitOk;
}

// The log stores UTF-8 only: an option that is not was refused by ingest as "(event): is not valid
// UTF-8", naming neither the option nor the value.
bool IdsAreUtf8(std::string_view verb, const RewardFlags& f) {
  const std::pair<const char*, const std::string*> ids[] = {{"--task", &f.task},
                                                            {"--session", &f.session},
                                                            {"--commit", &f.commit},
                                                            {"--agent", &f.agent}};
  for (const auto& [flag, value] : ids) {
    if (simdjson::validate_utf8(value->data(), value->size())) continue;
    fmt::print(stderr, "kaizen {}: {} \"{}\" is not valid UTF-8 (the log stores UTF-8 text)\n",
               verb, flag, signals::PrintableUtf8(*value));
    return false;
  }
  return true;
}

// A report's path as the event names it: file names are bytes, and one that is not UTF-8 must not
// cost the signal, so bytes outside UTF-8 show as '?'.
std::string ShownPath(const std::string& path) { return signals::PrintableUtf8(path); }

int RunCi(const Common& c, const RewardFlags& f) {
  if (!IdsAreUtf8("reward ci", f)) return kExitUsage;
  const bool by_exit = f.exit_code_opt->count() > 0;
  if (by_exit == !f.junit.empty()) {
    fmt::print(stderr, "kaizen reward ci: give exactly one of --junit FILE and --exit-code N\n");
    return kExitUsage;
  }
  bool pass = false;
  std::string what, detail;
  std::function<void(base::JsonWriter&)> extra;
  if (by_exit) {
    // CI convention: exit status 0 is a pass, anything else a failure.
    pass = f.exit_code == 0;
    what = "ci:exit-code";
    extra = [&](base::JsonWriter& w) {
      model::Key(w, ContextField::exit_code);
      w.Int(f.exit_code);
    };
    detail = fmt::format("exit code {}", f.exit_code);
  } else {
    auto text = ReadReport(f.junit, "--junit");
    if (!text.ok()) return home::FailVerb("reward ci", text.status());
    auto report = signals::ParseJUnit(*text, f.junit);
    if (!report.ok()) {
      fmt::print(stderr, "kaizen reward ci: {}\n", report.status().message());
      return kExitRejected;
    }
    if (report->executed() == 0) {
      fmt::print(stderr,
                 "kaizen reward ci: {}: no test case ran ({} in the report, {} skipped); a run "
                 "that tested nothing is neither a pass nor a failure, nothing recorded\n",
                 f.junit, report->tests, report->skipped);
      return kExitRejected;
    }
    pass = report->passing();
    what = "ci:junit:" + ShownPath(std::filesystem::path(f.junit).filename().string());
    extra = [&f, counts = *report](base::JsonWriter& w) {
      model::Field(w, ContextField::report, ShownPath(f.junit));
      model::Field(w, ContextField::report_format, "junit");
      const std::pair<model::FieldName, int64_t> numbers[] = {
          {ContextField::tests, counts.tests},
          {ContextField::failures, counts.failures},
          {ContextField::errors, counts.errors},
          {ContextField::skipped, counts.skipped}};
      for (const auto& [field, n] : numbers) {
        model::Key(w, field);
        w.Int64(n);
      }
    };
    detail = fmt::format("{} tests: {} passed, {} failed, {} errors, {} skipped", report->tests,
                         report->passed(), report->failures, report->errors, report->skipped);
  }
  const char* raw = pass ? "pass" : "fail";
  const std::string event = RewardEvent(
      f, SignalId(what), "ci_result", [&](base::JsonWriter& w) { base::Str(w, raw); },
      "kaizen reward ci", extra);
  return Store(c, "reward ci", event,
               fmt::format("ci_result {} (signal {}): {}", raw, pass ? "1.0" : "0.0", detail),
               fmt::format(",\"signal_type\":\"ci_result\",\"raw_value\":\"{}\","
                           "\"signal_value\":{}",
                           raw, pass ? 1 : 0));
}

int RunCoverage(const Common& c, const RewardFlags& f) {
  if (!IdsAreUtf8("reward coverage", f)) return kExitUsage;
  std::optional<double> rates[2];
  std::string formats[2];
  const std::string* files[2] = {&f.before, &f.after};
  for (int i = 0; i < 2; ++i) {
    auto text = ReadReport(*files[i], i == 0 ? "BEFORE" : "AFTER");
    if (!text.ok()) return home::FailVerb("reward coverage", text.status());
    auto report = signals::ParseCoverage(*text, *files[i]);
    if (!report.ok()) {
      fmt::print(stderr, "kaizen reward coverage: {}\n", report.status().message());
      return kExitRejected;
    }
    rates[i] = report->LineRate();
    formats[i] = signals::FormatName(report->format);
    if (!rates[i]) {
      fmt::print(stderr, "kaizen reward coverage: {}: the report measured no line\n", *files[i]);
      return kExitRejected;
    }
  }
  // seed 001: coverage delta, -100%..+100% -> 0.0..1.0 (0.5 = no change). raw_value is the
  // change of line coverage in percentage points; the pipeline normalizes it.
  const double delta = (*rates[1] - *rates[0]) * 100.0;
  const std::string signal_id = SignalId(fmt::format(
      "coverage:{}:{}..{}", formats[1], ShownPath(std::filesystem::path(f.before).filename()),
      ShownPath(std::filesystem::path(f.after).filename())));
  const std::string event = RewardEvent(
      f, signal_id, "coverage_delta", [&](base::JsonWriter& w) { w.Double(delta); },
      "kaizen reward coverage",
      [&](base::JsonWriter& w) {
        model::Field(w, ContextField::before, ShownPath(f.before));
        model::Field(w, ContextField::after, ShownPath(f.after));
        model::Field(w, ContextField::before_format, formats[0]);
        model::Field(w, ContextField::after_format, formats[1]);
        model::Key(w, ContextField::before_rate);
        w.Double(*rates[0]);
        model::Key(w, ContextField::after_rate);
        w.Double(*rates[1]);
      });
  return Store(c, "reward coverage", event,
               fmt::format("coverage_delta {:+.2f} points: line coverage {:.2f}% -> {:.2f}% "
                           "(signal {:.4f})",
                           delta, *rates[0] * 100, *rates[1] * 100, 0.5 + delta / 200.0),
               fmt::format(",\"signal_type\":\"coverage_delta\",\"raw_value\":{},"
                           "\"before\":{},\"after\":{},\"signal_value\":{}",
                           delta, *rates[0], *rates[1], 0.5 + delta / 200.0));
}

}  // namespace

Verb AddRewardVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<RewardFlags>();
  CLI::App* sub = app.add_subcommand(
      "reward", "record automatic reward signals (seed 001 tier 1): CI results, coverage delta");
  sub->require_subcommand(1);
  auto context = [&c, f](CLI::App* s) {
    s->add_option("--task", f->task, "the task the signal is about (task_id)");
    s->add_option("--session", f->session, "the session it is about (session_id)");
    s->add_option("--commit", f->commit, "the commit it is about (commit_hash)");
    s->add_option("--agent", f->agent, "the agent whose work it is (context.agent)");
    AddCommonOptions(s, c, /*with_json=*/true, /*with_now=*/true);
  };
  CLI::App* ci = sub->add_subcommand(
      "ci",
      "record a CI result (ci_result: pass 1.0, fail 0.0) from a JUnit report or an exit "
      "code");
  ci->add_option("--junit", f->junit,
                 "a JUnit XML report: pass when a test ran and none failed or errored");
  f->exit_code_opt =
      ci->add_option("--exit-code", f->exit_code, "the CI command's exit status: 0 is a pass")
          ->check(CLI::Range(0, 255));
  context(ci);
  CLI::App* cov = sub->add_subcommand(
      "coverage",
      "record the line-coverage change between two reports (coverage_delta: -100..+100 points "
      "-> 0..1, 0.5 = no change); lcov or Cobertura, told apart by content");
  cov->add_option("BEFORE", f->before, "the coverage report before the change")->required();
  cov->add_option("AFTER", f->after, "the coverage report after it")->required();
  context(cov);
  return {sub, [&c, f, ci, cov]() {
            if (ci->parsed()) return RunCi(c, *f);
            if (cov->parsed()) return RunCoverage(c, *f);
            return kExitUsage;
          }};
}

}  // namespace kaizen::cli
