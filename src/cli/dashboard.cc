// `kaizen dashboard`: the KPI panel of seed 000 §7.1 with the §7.3 alerts, as a box in the
// terminal (issue 6 item 4). The numbers are the ones `kaizen analyze --json` gives under `kpis`,
// `alerts` and `signals`, read from the learner as the analysis reads them; this verb only decides
// how they look (render/dashboard_box.h).
#include <rapidjson/stringbuffer.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/learned_state.h"
#include "learn/learner.h"
#include "model/timestamp.h"
#include "render/dashboard_box.h"

namespace kaizen::cli {
namespace {

struct DashboardFlags {
  std::string color = "auto";
};

// Color: `always` and `never` are obeyed; `auto` colors only a terminal, and not when NO_COLOR
// is set to anything non-empty (https://no-color.org) or TERM is "dumb". An explicit
// `--color always` is the user asking, so it wins over NO_COLOR.
bool UseColor(std::string_view flag) {
  if (flag == "always") return true;
  if (flag == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

// POSIX precedence for the character set: LC_ALL, then LC_CTYPE, then LANG, the first that is
// set and non-empty. UTF-8 when it names UTF-8 ("en_US.UTF-8", "C.utf8"); anything else,
// including nothing set (the C locale), gets plain ASCII.
bool LocaleIsUtf8() {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') continue;
    std::string lower;
    for (const char* p = v; *p; ++p) {
      if (*p != '-') lower += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    }
    return lower.find("utf8") != std::string::npos;
  }
  return false;
}

// The dashboard's data from the learner's KPIs, alerts and signals (the analysis's `kpis`,
// `alerts` and `signals`, figures as its JSON writes them: base::AsWritten). Returns the KPIs,
// whose windows --json shows.
learn::KpiResult ReadDashboard(const learn::Learner& learner, int64_t now_ms,
                               render::DashboardData* d) {
  d->now = model::FormatUtc(now_ms);
  d->events = learner.events();
  learn::KpiResult result = learner.Kpis(now_ms);
  for (const learn::KpiValue& kpi : result.kpis) {
    render::DashboardKpi k;
    k.key = kpi.name;
    for (const std::optional<double>& v : kpi.values) k.values.push_back(base::AsWritten(v));
    k.trend = kpi.trend;
    k.better = kpi.better;
    k.n = kpi.n;
    k.min_n = kpi.min_n;
    d->kpis.push_back(std::move(k));
  }
  // An empty log has no KPI to show: the learner reports a feedback volume of 0 per week (a
  // count), but "0/wk of nothing" on target would read as a healthy system. Everything is "no
  // data" until the first event.
  if (d->events == 0) {
    for (render::DashboardKpi& k : d->kpis) {
      for (auto& v : k.values) v.reset();
      k.trend.reset();
      k.n.clear();
    }
  }
  // seed 001's success metrics, each with its monthly trend.
  const learn::SignalsResult signals = learner.signals().Result(now_ms);
  for (auto [metric, key, better] : {std::tuple{&signals.coverage, "signalCoverage", "up"},
                                     {&signals.revert_rate, "revertRate", "down"},
                                     {&signals.human_edit_rate, "humanEditAfterAgentRate", "down"},
                                     {&signals.ci_pass_rate, "ciPassRate", "up"},
                                     {&signals.time_to_completion, "timeToCompletion", "down"},
                                     {&signals.ratings, "meanRating", "up"}}) {
    render::DashboardKpi k;
    k.key = key;
    k.better = better;
    for (const learn::MonthValue& m : metric->trend) k.values.push_back(base::AsWritten(m.value));
    // The trend: the last month against the one before, when both have data.
    const size_t n = k.values.size();
    if (n >= 2 && k.values[n - 1] && k.values[n - 2]) {
      const double now = *k.values[n - 1], then = *k.values[n - 2];
      k.trend = std::fabs(now - then) < 1e-9 ? "flat" : now > then ? "up" : "down";
    }
    d->signals.push_back(std::move(k));
  }
  for (const learn::Alert& a : result.alerts) {
    d->alerts.push_back({a.level, a.condition, a.message, a.action});
  }
  return result;
}

// --json: the box's numbers as an object; `text` holds each value exactly as the box prints it.
std::string DashboardJson(const render::DashboardData& d, const learn::KpiResult& kpis,
                          const render::DashboardTargets& targets) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  w.Key("now");
  if (d.now.empty()) {
    w.Null();
  } else {
    base::Str(w, d.now);
  }
  w.Key("events");
  w.Uint64(d.events);
  w.Key("windowDays");
  w.Int64(d.window_days);
  w.Key("windows");
  learn::WriteWindowsJson(w, kpis);
  w.Key("health");
  base::NumExact(w, render::OverallHealth(d.kpis, targets));
  // The same for both arrays: what each KPI or signal row of the box shows.
  auto rows = [&](const char* key, const std::vector<render::DashboardKpi>& list) {
    w.Key(key);
    w.StartArray();
    for (const render::DashboardKpi& k : list) {
      w.StartObject();
      w.Key("key");
      base::Str(w, k.key);
      w.Key("name");
      base::Str(w, render::KpiLabel(k.key));
      w.Key("values");
      w.StartArray();
      for (const auto& v : k.values) base::NumExact(w, v);
      w.EndArray();
      const std::optional<double> current = k.values.empty() ? std::nullopt : k.values.back();
      w.Key("current");
      base::NumExact(w, current);
      w.Key("text");
      w.StartArray();
      for (const auto& v : k.values) {
        if (v) {
          base::Str(w, render::FormatKpiValue(k.key, *v, /*utf8=*/true));
        } else {
          w.Null();
        }
      }
      w.EndArray();
      w.Key("trend");
      if (k.trend) {
        base::Str(w, *k.trend);
      } else {
        w.Null();
      }
      w.Key("better");
      base::Str(w, k.better);
      w.Key("target");
      base::Str(w, render::KpiTargetText(k.key, targets, /*utf8=*/true));
      w.Key("standing");
      w.String(render::StandingName(render::KpiStanding(k, targets)));
      w.Key("standingText");
      base::Str(w, render::StandingText(k, targets));
      w.Key("n");
      if (k.n.empty()) {
        w.Null();
      } else {
        w.StartArray();
        for (uint64_t n : k.n) w.Uint64(n);
        w.EndArray();
      }
      w.Key("minN");
      w.Uint64(k.min_n);
      w.EndObject();
    }
    w.EndArray();
  };
  rows("kpis", d.kpis);
  rows("signals", d.signals);
  w.Key("alerts");
  w.StartArray();
  for (const render::DashboardAlert& a : d.alerts) {
    w.StartObject();
    w.Key("level");
    base::Str(w, a.level);
    w.Key("condition");
    base::Str(w, a.condition);
    w.Key("message");
    base::Str(w, a.message);
    w.Key("action");
    base::Str(w, a.action);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

int RunDashboard(const Common& c, const DashboardFlags& f) {
  // What ReadDashboard reads of the learner: these sections' parts.
  const learn::Sections sections = {learn::Section::kKpis, learn::Section::kAlerts,
                                    learn::Section::kSignals};
  home::LearnedState state;
  if (Status s = home::LoadLearnedState(c, &state, nullptr, sections.Needs()); !s.ok()) {
    return home::FailVerb("dashboard", s);
  }
  home::WarnUnreadable(state.scan);
  render::DashboardData data;
  // The window length the learner used: the home's config (already validated by the load).
  learn::LearnConfig config;
  if (Status s = home::LoadLearnConfig(c.home, &config); !s.ok())
    return home::FailVerb("dashboard", s);
  data.window_days = static_cast<int64_t>(config.kpis.window_days);
  const learn::KpiResult kpis = ReadDashboard(*state.learner, state.now_ms, &data);
  // `--now end` on an empty log has no newest event: say so rather than show 1970-01-01.
  if (data.events == 0 && c.now == "end") data.now.clear();
  render::DashboardOptions options;
  if (c.json) {
    fmt::print("{}", DashboardJson(data, kpis, options.targets));
    return kExitOk;
  }
  options.color = UseColor(f.color);
  options.utf8 = LocaleIsUtf8();
  fmt::print("{}", render::RenderDashboardBox(data, options));
  return kExitOk;
}

}  // namespace

Verb AddDashboardVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<DashboardFlags>();
  CLI::App* sub = app.add_subcommand(
      "dashboard",
      "print the KPI panel (seed 000 §7.1: eight KPIs, their 3-window trend and target) and the "
      "§7.3 alerts as a box; colored on a terminal");
  sub->add_option("--color", f->color,
                  "auto (color on a terminal unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, f]() { return RunDashboard(c, *f); }};
}

}  // namespace kaizen::cli
