#include "render/dashboard_box.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace kaizen::render {
namespace {

constexpr int kWidth = 80;  // fits a classic terminal
constexpr int kInner = kWidth - 4;
// Column widths of the KPI table: "│ " name " │ " trend " │ " now " │ " target " │" = 80.
constexpr int kName = 19, kTrend = 29, kNow = 9, kTarget = 10;
static_assert(2 + kName + 3 + kTrend + 3 + kNow + 3 + kTarget + 2 == kWidth);

struct Glyphs {
  const char *h, *v, *tl, *tr, *bl, *br, *left, *right, *down, *up, *cross;
  const char *arrow, *rise, *fall, *flat, *ge, *le, *pm, *none, *more, *dot, *full, *empty;
};
constexpr Glyphs kUnicode{"─", "│", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "→",
                          "↑", "↓", "=", "≥", "≤", "±", "–", "…", "·", "█", "░"};
constexpr Glyphs kAscii{"-", "|", "+", "+",  "+",  "+",   "+", "+",   "+", "+", "+", "->",
                        "^", "v", "=", ">=", "<=", "+/-", "-", "...", "-", "#", "."};

const Glyphs& G(bool utf8) { return utf8 ? kUnicode : kAscii; }

// One code point at s[i]: its length, or 0 when the bytes there are not valid UTF-8.
size_t CodePointLength(std::string_view s, size_t i, uint32_t* cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  *cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
  for (size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    *cp = (*cp << 6) | (c & 0x3F);
  }
  return len;
}

// Text from the log (alert messages quote rejection reasons people wrote) made safe for a
// terminal: control characters (C0, DEL, C1, so no escape sequence gets through) and invalid
// bytes become '?'; in ASCII mode the few symbols kaizen itself writes get ASCII spellings and
// any other non-ASCII character becomes '?'.
std::string Clean(std::string_view s, bool utf8) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t len = CodePointLength(s, i, &cp);
    if (len == 0) {
      out += '?';
      ++i;
      continue;
    }
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
      out += cp == '\n' || cp == '\t' ? ' ' : '?';
    } else if (cp < 0x80 || utf8) {
      out.append(s.substr(i, len));
    } else {
      out += cp == 0xB1 ? "+/-" : cp == 0x2192 ? "->" : cp == 0x2013 ? "-" : "?";
    }
    i += len;
  }
  return out;
}

// Columns a clean string takes: one per code point (kaizen's own text has no wide characters;
// a wide character in a quoted reason can push that one line's border out, never break it).
int Columns(std::string_view s) {
  int n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The first `cols` columns of a clean string.
std::string_view Prefix(std::string_view s, int cols) {
  int n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == cols) return s.substr(0, i);
  }
  return s;
}

// `s` in exactly `cols` columns: cut with the ellipsis, or padded with spaces; `sgr` colors the
// text (not the padding) when non-empty.
std::string Cell(std::string_view s, int cols, const Glyphs& g, std::string_view sgr = {}) {
  std::string text(s);
  if (Columns(text) > cols) {
    text = std::string(Prefix(text, cols - Columns(g.more))) + g.more;
  }
  int pad = cols - Columns(text);
  if (!sgr.empty()) text = fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  return text + std::string(static_cast<size_t>(std::max(0, pad)), ' ');
}

std::string Repeat(const char* s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const char* StandingSgr(Standing s) {
  switch (s) {
    case Standing::kGood:
      return "32";  // green
    case Standing::kFair:
      return "33";  // yellow
    case Standing::kPoor:
      return "31";  // red
    case Standing::kNone:
    case Standing::kInsufficient:
      break;
  }
  return "";
}

// §7.3 levels: 🔴 critical, 🟡 warning, 🟠 notice (orange from the 256-color palette, which
// every common terminal has).
const char* LevelSgr(std::string_view level) {
  if (level == "critical") return "1;31";
  if (level == "warning") return "33";
  if (level == "notice") return "38;5;208";
  return "";
}

// Word-wraps a clean string to `cols` columns; words longer than a line are cut.
std::vector<std::string> Wrap(std::string_view s, int cols) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view word = s.substr(i, j - i);
    i = j + 1;
    if (word.empty()) continue;
    while (Columns(word) > cols) {
      if (!line.empty()) lines.push_back(std::exchange(line, {}));
      std::string_view head = Prefix(word, cols);
      lines.emplace_back(head);
      word.remove_prefix(head.size());
    }
    if (word.empty()) continue;
    if (!line.empty() && Columns(line) + 1 + Columns(word) > cols) {
      lines.push_back(std::exchange(line, {}));
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

learn::ConfigFields DashboardTargets::Fields() {
  return {
      {"dashboard.approval_good", &approval_good, 0, 1, false,
       "approval rate shown green from here (seed 000 §7.2: ↑, asymptote ~95%)"},
      {"dashboard.approval_fair", &approval_fair, 0, 1, false,
       "approval rate shown yellow from here, red below"},
      {"dashboard.quality_good", &quality_good, 1, 10, false,
       "average quality score shown green from here (seed 000 §7.2: target 8.0+)"},
      {"dashboard.quality_fair", &quality_fair, 1, 10, false,
       "average quality score shown yellow from here, red below"},
      {"dashboard.prediction_good", &prediction_good, 0, 10, false,
       "prediction error shown green up to here (seed 000 §7.2: target ±0.5)"},
      {"dashboard.prediction_fair", &prediction_fair, 0, 10, false,
       "prediction error shown yellow up to here, red above (seed 000 §7.3: > ±2.0 warns)"},
      {"dashboard.regression_fair", &regression_fair, 0, 1, false,
       "regression rate shown yellow below this, red from here (seed 000 §7.2: target 0)"},
  };
}

const char* StandingName(Standing s) {
  switch (s) {
    case Standing::kGood:
      return "good";
    case Standing::kFair:
      return "fair";
    case Standing::kPoor:
      return "poor";
    case Standing::kInsufficient:
      return "insufficient";
    case Standing::kNone:
      break;
  }
  return "none";
}

Standing KpiStanding(const DashboardKpi& k, const DashboardTargets& t) {
  if (k.values.empty() || !k.values.back()) return Standing::kNone;
  if (k.n.size() == k.values.size() && k.n.back() < k.min_n) return Standing::kInsufficient;
  const double v = *k.values.back();
  auto at_least = [v](double good, double fair) {
    return v >= good ? Standing::kGood : v >= fair ? Standing::kFair : Standing::kPoor;
  };
  auto at_most = [v](double good, double fair) {
    return v <= good ? Standing::kGood : v <= fair ? Standing::kFair : Standing::kPoor;
  };
  constexpr double kEps = 1e-9;
  if (k.key == "approvalRate") return at_least(t.approval_good, t.approval_fair);
  if (k.key == "avgQualityScore") return at_least(t.quality_good, t.quality_fair);
  if (k.key == "predictionError") return at_most(t.prediction_good, t.prediction_fair);
  // §7.2 "rules actually help": a positive delta is good, none is fair, a negative one is poor.
  if (k.key == "ruleEffectiveness") return at_least(kEps, -kEps);
  if (k.key == "regressionRate") {
    return v <= kEps ? Standing::kGood : v < t.regression_fair ? Standing::kFair : Standing::kPoor;
  }
  // seed 001 "Reward signal coverage: baseline ~20%, target >80%".
  if (k.key == "signalCoverage") return at_least(0.8, 0.2);
  if (!k.trend) return Standing::kNone;
  return *k.trend == "flat" || *k.trend == k.better ? Standing::kGood : Standing::kFair;
}

std::string StandingText(const DashboardKpi& k, const DashboardTargets& t) {
  const Standing s = KpiStanding(k, t);
  if (s == Standing::kInsufficient) return fmt::format("not enough data (n = {})", k.n.back());
  if (s != Standing::kNone) return StandingName(s);
  return k.values.empty() || !k.values.back() ? "no data" : "no trend yet";
}

std::optional<double> OverallHealth(const std::vector<DashboardKpi>& kpis,
                                    const DashboardTargets& t) {
  double sum = 0;
  int n = 0;
  for (const DashboardKpi& k : kpis) {
    const Standing s = KpiStanding(k, t);
    if (s == Standing::kNone || s == Standing::kInsufficient) continue;
    sum += s == Standing::kGood ? 1 : s == Standing::kFair ? 0.5 : 0;
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

std::string KpiLabel(std::string_view key) {
  // seed 000 §7.1 / §7.2 names.
  if (key == "approvalRate") return "Approval Rate";
  if (key == "avgQualityScore") return "Avg Quality Score";
  if (key == "timeToDecisionSeconds") return "Time-to-Decision";
  if (key == "predictionError") return "Prediction Accuracy";
  if (key == "autoApproveRate") return "Auto-Approve Rate";
  if (key == "feedbackPerWeek") return "Feedback Volume";
  if (key == "ruleEffectiveness") return "Rule Effectiveness";
  if (key == "regressionRate") return "Regression Rate";
  // seed 001 success metrics
  if (key == "signalCoverage") return "Signal Coverage";
  if (key == "revertRate") return "Revert Rate";
  if (key == "humanEditAfterAgentRate") return "Edit-After-Agent";
  if (key == "ciPassRate") return "CI Pass Rate";
  if (key == "timeToCompletion") return "Time-to-Completion";
  if (key == "meanRating") return "Rating (1-5)";
  return std::string(key);
}

std::string FormatKpiValue(std::string_view key, double v, bool utf8) {
  if (key == "approvalRate" || key == "autoApproveRate" || key == "regressionRate" ||
      key == "signalCoverage" || key == "revertRate" || key == "humanEditAfterAgentRate" ||
      key == "ciPassRate") {
    return fmt::format("{:.1f}%", v * 100);
  }
  if (key == "timeToCompletion") {
    return v >= 3600 ? fmt::format("{:.1f}h", v / 3600) : fmt::format("{:.0f}min", v / 60);
  }
  if (key == "meanRating") return fmt::format("{:.1f}/5", v);
  if (key == "avgQualityScore") return fmt::format("{:.1f}", v);
  if (key == "timeToDecisionSeconds") return fmt::format("{:.0f}s", v);
  if (key == "predictionError") return fmt::format("{}{:.1f}", G(utf8).pm, v);
  if (key == "feedbackPerWeek") return fmt::format("{:.1f}/wk", v);
  if (key == "ruleEffectiveness") return fmt::format("{:+.1f}", v);
  return fmt::format("{:.2f}", v);
}

std::string KpiTargetText(std::string_view key, const DashboardTargets& t, bool utf8) {
  const Glyphs& g = G(utf8);
  if (key == "approvalRate") return fmt::format("{} {:.0f}%", g.ge, t.approval_good * 100);
  if (key == "avgQualityScore") return fmt::format("{} {:.1f}", g.ge, t.quality_good);
  if (key == "predictionError") return fmt::format("{} {}{:.1f}", g.le, g.pm, t.prediction_good);
  if (key == "ruleEffectiveness") return "> 0";
  if (key == "regressionRate") return "= 0";
  if (key == "timeToDecisionSeconds" || key == "feedbackPerWeek") {
    return fmt::format("{} falling", g.fall);
  }
  if (key == "autoApproveRate") return fmt::format("{} rising", g.rise);
  if (key == "signalCoverage") return fmt::format("{} 80%", g.ge);
  if (key == "revertRate" || key == "humanEditAfterAgentRate" || key == "timeToCompletion") {
    return fmt::format("{} falling", g.fall);
  }
  if (key == "ciPassRate" || key == "meanRating") return fmt::format("{} rising", g.rise);
  return "";
}

std::string RenderDashboardBox(const DashboardData& d, const DashboardOptions& o) {
  const Glyphs& g = G(o.utf8);
  auto sgr = [&](const char* code) {
    return o.color ? std::string_view(code) : std::string_view();
  };
  std::string out;
  auto full = [&](std::string_view text, std::string_view color = {}) {
    out += fmt::format("{} {} {}\n", g.v, Cell(text, kInner, g, color), g.v);
  };
  auto centered = [&](std::string_view text, std::string_view color = {}) {
    int left = std::max(0, (kInner - Columns(text)) / 2);
    std::string pad(static_cast<size_t>(left), ' ');
    if (color.empty()) return full(pad + std::string(text));
    out += fmt::format("{} {}{} {}\n", g.v, pad, Cell(text, kInner - left, g, color), g.v);
  };
  const int cols[] = {kName, kTrend, kNow, kTarget};
  auto rule = [&](const char* l, const char* mid, const char* r) {
    out += l;
    for (int i = 0; i < 4; ++i) {
      out += Repeat(g.h, cols[i] + 2);
      out += i < 3 ? mid : r;
    }
    out += '\n';
  };
  auto plain_rule = [&](const char* l, const char* r) {
    out += fmt::format("{}{}{}\n", l, Repeat(g.h, kWidth - 2), r);
  };
  auto row = [&](std::string_view a, std::string_view b, std::string_view c, std::string_view cc,
                 std::string_view e) {
    out +=
        fmt::format("{} {} {} {} {} {} {} {} {}\n", g.v, Cell(a, kName, g), g.v, Cell(b, kTrend, g),
                    g.v, Cell(c, kNow, g, cc), g.v, Cell(e, kTarget, g), g.v);
  };

  plain_rule(g.tl, g.tr);
  centered("KAIZEN LEARNING DASHBOARD", sgr("1"));
  centered(fmt::format("{} {} {} events {} {}-day windows, oldest first",
                       d.now.empty() ? std::string("no time (empty log)") : Clean(d.now, o.utf8),
                       g.dot, d.events, g.dot, d.window_days));
  rule(g.left, g.down, g.right);
  row("KPI", "trend", "now", {}, "target");
  rule(g.left, g.cross, g.right);

  auto kpi_row = [&](const DashboardKpi& k) {
    // The trend: every window's value; when they do not fit, the newest that do, after "…".
    std::vector<std::string> shown;
    for (const auto& v : k.values) shown.push_back(v ? FormatKpiValue(k.key, *v, o.utf8) : g.none);
    std::string trend;
    for (size_t first = 0; first < shown.size(); ++first) {
      trend = first > 0 ? std::string(g.more) + " " : std::string();
      for (size_t i = first; i < shown.size(); ++i) {
        trend += (i > first ? fmt::format(" {} ", g.arrow) : std::string()) + shown[i];
      }
      if (Columns(trend) <= kTrend) break;
    }
    const Standing standing = KpiStanding(k, o.targets);
    std::string now = "no data";
    if (!k.values.empty() && k.values.back()) {
      now = FormatKpiValue(k.key, *k.values.back(), o.utf8);
      if (k.trend) {
        now += std::string(" ") + (*k.trend == "up"     ? g.rise
                                   : *k.trend == "down" ? g.fall
                                                        : g.flat);
      }
    }
    row(Clean(KpiLabel(k.key), o.utf8), trend, now, sgr(StandingSgr(standing)),
        KpiTargetText(k.key, o.targets, o.utf8));
    // The verdict withheld, said on the row's own line under its trend (the value stays shown,
    // uncolored: it is real, only too thin to judge).
    if (standing == Standing::kInsufficient) {
      row("", StandingText(k, o.targets), "", {}, "");
    }
  };
  for (const DashboardKpi& k : d.kpis) kpi_row(k);
  if (!d.signals.empty()) {
    rule(g.left, g.cross, g.right);
    row("Automatic signals", "calendar months", "", {}, "seed 001");
    for (const DashboardKpi& k : d.signals) kpi_row(k);
  }

  out += fmt::format("{}{}{}{}{}{}{}{}{}\n", g.left, Repeat(g.h, kName + 2), g.up,
                     Repeat(g.h, kTrend + 2), g.up, Repeat(g.h, kNow + 2), g.up,
                     Repeat(g.h, kTarget + 2), g.right);
  const std::optional<double> overall = OverallHealth(d.kpis, o.targets);
  if (!overall) {
    full("Overall Health      no data");
  } else {
    const double health = *overall;
    int health_n = 0;
    for (const DashboardKpi& k : d.kpis) {
      const Standing s = KpiStanding(k, o.targets);
      health_n += s != Standing::kNone && s != Standing::kInsufficient;
    }
    const int filled = static_cast<int>(std::lround(health * 10));
    const Standing s = health >= 0.75  ? Standing::kGood
                       : health >= 0.5 ? Standing::kFair
                                       : Standing::kPoor;
    std::string bar = Repeat(g.full, filled) + Repeat(g.empty, 10 - filled);
    std::string text = fmt::format("{:.0f}% on target ({} KPIs with data)", health * 100, health_n);
    const std::string head = "Overall Health      ";
    out += fmt::format("{} {}{} {} {}\n", g.v, head, Cell(bar, 10, g, sgr(StandingSgr(s))),
                       Cell(text, kInner - Columns(head) - 11, g), g.v);
  }

  plain_rule(g.left, g.right);
  full("Alerts");
  if (d.alerts.empty()) full("  none");
  for (const DashboardAlert& a : d.alerts) {
    const std::string tag = "[" + Clean(a.level, o.utf8) + "]";
    const std::string text =
        Clean(a.message, o.utf8) + " " + g.arrow + " " + Clean(a.action, o.utf8);
    const int indent = Columns(tag) + 3;
    std::vector<std::string> lines = Wrap(text, kInner - indent);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string lead = i == 0 ? "  " + Cell(tag, Columns(tag), g, sgr(LevelSgr(a.level))) + " "
                                : std::string(static_cast<size_t>(indent), ' ');
      out += fmt::format("{} {}{} {}\n", g.v, lead, Cell(lines[i], kInner - indent, g), g.v);
    }
  }
  plain_rule(g.bl, g.br);
  return out;
}

}  // namespace kaizen::render
