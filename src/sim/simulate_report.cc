// What a simulation found, as people and programs read it: `kaizen simulate`'s JSON and text, and
// the side-by-side table `kaizen demo` prints (learning on and off).
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>

#include <string>
#include <vector>

#include "base/json_writer.h"
#include "model/timestamp.h"
#include "sim/simulate.h"

namespace kaizen::sim {
namespace {

void WriteRates(base::JsonWriter& w, const SimWeek& s) {
  base::Key(w, "submitted");
  w.Int64(s.submitted);
  base::Key(w, "reviewed");
  w.Int64(s.reviewed);
  base::Key(w, "approvalRate");
  base::Num(w, s.ApprovalRate());
  base::Key(w, "predictionError");
  base::Num(w, s.PredictionError());
  base::Key(w, "autoApproveRate");
  base::Num(w, s.AutoApproveRate());
}

std::string Percent(std::optional<double> x) {
  return x ? fmt::format("{:.1f}%", *x * 100) : std::string("-");
}

std::string Fixed3(std::optional<double> x) {
  return x ? fmt::format("{:.3f}", *x) : std::string("-");
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string SimulationJson(const SimulationResult& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  w.StartObject();
  base::Key(w, "seed");
  w.Uint64(r.options.seed);
  base::Key(w, "days");
  w.Int(r.options.days);
  base::Key(w, "learning");
  w.Bool(r.options.learning);
  if (r.options.reviews_per_week > 0) {
    base::Key(w, "reviewsPerWeek");
    w.Int(r.options.reviews_per_week);
  }
  base::Key(w, "weeks");
  w.StartArray();
  for (const SimWeek& week : r.weeks) {
    w.StartObject();
    base::Key(w, "week");
    w.Int(week.week);
    base::Key(w, "from");
    base::Str(w, model::FormatDay(week.from_ms));
    WriteRates(w, week);
    base::Key(w, "recovered");
    w.Int(week.recovered);
    base::Key(w, "hiddenPreferences");
    w.Int(week.hidden);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "recovered");
  base::StrArray(w, r.recovered);
  base::Key(w, "final");
  w.StartObject();
  base::Key(w, "events");
  w.Uint64(r.events);
  WriteRates(w, r.total);
  base::Key(w, "autoApproved");
  w.Int64(r.total.auto_approved);
  base::Key(w, "hiddenPreferences");
  w.Int(r.hidden);
  base::Key(w, "gates");
  w.StartArray();
  for (const SimGate& g : r.gates) {
    w.StartObject();
    base::Key(w, "dimension");
    base::Str(w, g.dimension);
    base::Key(w, "threshold");
    w.Int(g.threshold);
    base::Key(w, "kind");
    base::Str(w, g.kind);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "flaggedPatterns");
  base::StrArray(w, r.flagged_patterns);
  base::Key(w, "autonomy");
  w.StartObject();
  for (const auto& [task, level] : r.autonomy) {
    base::Key(w, task);
    w.Int(level);
  }
  w.EndObject();
  w.EndObject();
  w.EndObject();
  std::string out(buffer.GetString(), buffer.GetSize());
  out.push_back('\n');
  return out;
}

std::string SimulationSummary(const SimulationResult& r) {
  if (r.weeks.empty()) return "Nothing was simulated.";
  const SimWeek& first = r.weeks.front();
  const SimWeek& last = r.weeks.back();
  const std::string change = fmt::format(
      "approval of reviewed work went from {} in week 1 to {} in week {}, prediction error from "
      "{} to {}",
      Percent(first.ApprovalRate()), Percent(last.ApprovalRate()), last.week,
      Fixed3(first.PredictionError()), Fixed3(last.PredictionError()));
  const std::string found =
      fmt::format("kaizen recovered {} of {} hidden preferences", r.recovered.size(), r.hidden);
  if (r.options.learning) {
    return fmt::format(
        "The agent followed kaizen's advice every morning: {}, and {} of week {}'s work was "
        "auto-approved; {}{}.",
        change, Percent(last.AutoApproveRate()), last.week, found,
        r.recovered.empty() ? "" : " (" + Joined(r.recovered) + ")");
  }
  return fmt::format(
      "The agent ignored kaizen's advice: {}; {}, but the agent never used them, so nothing "
      "improved.",
      change, found);
}

std::string SimulationText(const SimulationResult& r) {
  std::string out = fmt::format(
      "kaizen simulate: seed {}, {} days from {}, learning {}{}\n", r.options.seed, r.options.days,
      model::FormatDay(kSimStartMs), r.options.learning ? "on" : "off (advice ignored)",
      r.options.reviews_per_week > 0
          ? fmt::format(", about {} work items a week", r.options.reviews_per_week)
          : std::string());
  out +=
      fmt::format("{:>4}  {:<10}  {:>9}  {:>8}  {:>8}  {:>10}  {:>13}  {:>9}\n", "week", "from",
                  "submitted", "reviewed", "approval", "pred.error", "auto-approved", "recovered");
  for (const SimWeek& w : r.weeks) {
    out += fmt::format("{:>4}  {:<10}  {:>9}  {:>8}  {:>8}  {:>10}  {:>13}  {:>9}\n", w.week,
                       model::FormatDay(w.from_ms), w.submitted, w.reviewed,
                       Percent(w.ApprovalRate()), Fixed3(w.PredictionError()),
                       Percent(w.AutoApproveRate()), fmt::format("{}/{}", w.recovered, w.hidden));
  }
  out += "\n" + SimulationSummary(r) + "\n";
  return out;
}

void PrintSimulationDemo() {
  SimulateOptions on;
  on.days = 56;
  SimulateOptions off = on;
  off.learning = false;
  const SimulationResult with = RunSimulation(on, nullptr);
  const SimulationResult without = RunSimulation(off, nullptr);
  const std::string row = "{:>4}  {:>8}  {:>8}  {:>8}  {:>8}  {:>13}  {:>6}\n";
  fmt::print(fmt::runtime(row), "", "approval", "", "pred.err", "", "auto-approved", "hidden");
  fmt::print(fmt::runtime(row), "week", "learning", "ignored", "learning", "ignored", "learning",
             "found");
  for (size_t i = 0; i < with.weeks.size() && i < without.weeks.size(); ++i) {
    const SimWeek& a = with.weeks[i];
    const SimWeek& b = without.weeks[i];
    fmt::print(fmt::runtime(row), a.week, Percent(a.ApprovalRate()), Percent(b.ApprovalRate()),
               Fixed3(a.PredictionError()), Fixed3(b.PredictionError()),
               Percent(a.AutoApproveRate()), fmt::format("{}/{}", a.recovered, a.hidden));
  }
  if (with.weeks.empty() || without.weeks.empty()) return;
  const SimWeek& first = with.weeks.front();
  const SimWeek& last = with.weeks.back();
  fmt::print(
      "The same agent and reviewer twice: acting on what kaizen learned from the reviews, approval "
      "went from {} to {}, prediction error from {} to {}, and {} of the work skipped review; "
      "ignoring the advice, approval went from {} to {}.\n",
      Percent(first.ApprovalRate()), Percent(last.ApprovalRate()), Fixed3(first.PredictionError()),
      Fixed3(last.PredictionError()), Percent(last.AutoApproveRate()),
      Percent(without.weeks.front().ApprovalRate()), Percent(without.weeks.back().ApprovalRate()));
}

}  // namespace kaizen::sim
