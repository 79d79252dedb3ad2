// The agent's side of the history: its work products (`work` lines, and the items every review
// names) and the swarm's epics (`error` and `outcome` lines).
#include "sim/gen_generator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "learn/outcomes/pattern_extraction.h"

namespace kaizen::sim::gen {

using model::EventField;

// ---- work products ----

double Generator::Curve(double p) { return (1 - std::exp(-2.5 * p)) / (1 - std::exp(-2.5)); }

double Generator::ExpectedScore(const Item& it) const {
  double sum = 0;
  int n = 0;
  for (int d = 0; d < kDimCount; ++d) {
    if (kTypes[it.type].dims & (1u << d)) {
      sum += it.q[d];
      ++n;
    }
  }
  return n ? sum / n : 6.0;
}

// Buba's self-assessment (seed 000): it ranks work roughly right but scores it
// high, and grows less optimistic as the history goes on.
void Generator::Predict(Item* it, double p) {
  const double truth = ExpectedScore(*it) - 0.2;
  it->prediction =
      static_cast<float>(Clamp(truth + (1.1 - 0.7 * p) + 0.7 * rng_.Normal(), 1.0, 10.0));
  // Most optimistic in the middle: "50-69% raw -> 35% actual", "90%+ raw -> 78% actual".
  const double approve = 1.0 / (1.0 + std::exp(-1.4 * (truth - 6.5)));
  const double optimism = (0.36 - 0.2 * approve) * (1.0 - 0.4 * p);
  it->confidence = static_cast<float>(Clamp(approve + optimism + 0.06 * rng_.Normal(), 0.05, 0.98));
}

uint32_t Generator::NewItem(int64_t t, bool external, int reviewer) {
  const double p = Progress(t);
  Item it;
  it.created = t;
  it.product = ++products_;
  it.server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
  it.type = static_cast<uint8_t>(rng_.Weighted(kTypeWeights));
  it.stage = static_cast<uint8_t>(rng_.Weighted(kTypes[it.type].stage_weights));
  if (reviewer >= 0) {
    it.reviewer = static_cast<uint8_t>(reviewer);
  } else {
    std::array<double, 4> w;
    for (int r = 0; r < 4; ++r) w[r] = kTypes[it.type].affinity[r] * Reviewers()[r].share;
    it.reviewer = static_cast<uint8_t>(rng_.Weighted(w));
  }
  it.domain = static_cast<uint8_t>(rng_.Below(4));
  it.feature = static_cast<uint8_t>(rng_.Below(kFeatures.size()));
  it.model =
      static_cast<uint8_t>(rng_.Chance(0.1) ? 2 : (rng_.Chance(p > 0.6 ? 0.7 : 0.05) ? 1 : 0));
  it.priority = static_cast<uint8_t>(rng_.Weighted(std::array<double, 4>{0.12, 0.6, 0.2, 0.08}));
  it.external = external;
  const Server& s = kServers[it.server];
  const double overall = 0.7 * rng_.Normal();
  const double c = Curve(p);
  for (int d = 0; d < kDimCount; ++d) {
    double q = kQualityStart[d] + (kQualityEnd[d] - kQualityStart[d]) * c + s.offset + overall +
               0.8 * rng_.Normal();
    if (d == kSecurity) q += s.security;
    if (d == kErrorHandling) q += s.errors;
    it.q[d] = static_cast<float>(Clamp(q, 1.0, 10.0));
  }
  Stamp(&it, p);
  items_.push_back(it);
  return static_cast<uint32_t>(items_.size() - 1);
}

uint32_t Generator::Revise(uint32_t src, int64_t t) {
  Item it = items_[src];
  it.created = t;
  ++it.version;
  it.priority = static_cast<uint8_t>(rng_.Chance(0.3) ? 3 : 2);
  for (int d = 0; d < kDimCount; ++d) {
    const bool fix = it.criticized & (1u << d);
    const double gain = fix ? 1.3 + 0.5 * rng_.Normal() : 0.2 + 0.25 * rng_.Normal();
    it.q[d] = static_cast<float>(Clamp(it.q[d] + gain, 1.0, 10.0));
  }
  it.criticized = 0;
  if (it.stage < 3 && rng_.Chance(0.3)) ++it.stage;
  Stamp(&it, Progress(t));
  it.iterations = static_cast<uint8_t>(std::min(9, it.iterations + 1));
  items_.push_back(it);
  return static_cast<uint32_t>(items_.size() - 1);
}

void Generator::Stamp(Item* it, double p) {
  Predict(it, p);
  it->prompt_hash = rng_.Next();
  it->generation_ms = static_cast<uint32_t>(Clamp(rng_.LogNormal(42000, 0.6), 2000, 900000));
  it->iterations = static_cast<uint8_t>(1 + rng_.Below(3));
}

void Generator::WriteRef(const Item& it, bool alternative) {
  static constexpr std::array<std::string_view, 3> kModels = {"claude-sonnet-4",
                                                              "claude-sonnet-4.5", "gpt-4.1"};
  const Server& s = kServers[it.server];
  const std::string_view domain = s.domains[it.domain];
  w_.Object();
  w_.Key(EventField::type).Lit(kTypes[it.type].name);
  w_.Key(EventField::id);
  ProductId(it);
  w_.Key(EventField::version).BeginStr();
  w_.Raw("v");
  w_.RawNum(it.version);
  if (alternative) w_.Raw("-alt");
  w_.EndStr();
  w_.Key(EventField::path).BeginStr();
  switch (it.type) {
    case 0:
      w_.Raw({"servers/", s.slug, "/src/tools/", domain, ".ts"});
      break;
    case 1:
      w_.Raw({"servers/", s.slug, "/src/", domain, "-client.ts"});
      break;
    case 2:
      w_.Raw({"servers/", s.slug, "/test/", domain, ".test.ts"});
      break;
    case 3:
      w_.Raw({"servers/", s.slug, "/README.md"});
      break;
    case 4:
      w_.Raw({"design/", s.slug, "/", domain, "-dashboard.fig"});
      break;
    default:
      w_.Raw({".github/workflows/", s.slug, "-deploy.yml"});
      break;
  }
  w_.EndStr();
  w_.Key(EventField::summary).BeginStr();
  switch (it.type) {
    case 0:
      w_.Raw({s.name, " MCP server: ", domain, " tools with ", kFeatures[it.feature]});
      break;
    case 1:
      w_.Raw({s.name, " ", domain, " client module with ", kFeatures[it.feature]});
      break;
    case 2:
      w_.Raw({"Integration tests for the ", s.name, " ", domain, " tools"});
      break;
    case 3:
      w_.Raw({"Setup guide and tool reference for the ", s.name, " MCP server"});
      break;
    case 4:
      w_.Raw({s.name, " ", domain, " dashboard: card layout and empty states"});
      break;
    default:
      w_.Raw({"CI and deploy pipeline for the ", s.name, " MCP server"});
      break;
  }
  w_.EndStr();
  w_.Key(EventField::bubaConfidence).Num(it.confidence, 2);
  w_.Key(EventField::bubaScorePrediction).Num(it.prediction, 1);
  w_.Key(EventField::generationContext).Object();
  w_.Key(EventField::promptHash).BeginStr();
  w_.RawHex(it.prompt_hash, 16);
  w_.EndStr();
  w_.Key(EventField::memorySnapshot).Array();
  w_.Lit("memory/feedback-patterns.md");
  w_.Lit("memory/quality-standards.md");
  w_.BeginStr();
  w_.Raw("memory/");
  w_.Raw(Reviewers()[it.reviewer].id);
  w_.Raw("-preferences.md");
  w_.EndStr();
  if (Progress(it.created) > 0.3) w_.Lit("memory/improvement-log.md");
  w_.EndArray();
  w_.Key(EventField::modelUsed).Lit(kModels[it.model]);
  w_.Key(EventField::generationTimeMs).Int(it.generation_ms);
  w_.Key(EventField::iterationCount).Int(it.iterations);
  w_.EndObject();
  w_.EndObject();
}

void Generator::EmitWork(int64_t t) {
  static constexpr std::array<std::string_view, 4> kPriorities = {"low", "normal", "high",
                                                                  "urgent"};
  uint32_t idx;
  if (!revisions_.empty() && (revisions_.size() > 8 || rng_.Chance(0.75))) {
    const uint32_t src = revisions_.front();
    revisions_.pop_front();
    idx = Revise(src, t);
  } else {
    idx = NewItem(t, false, -1);
  }
  const Item& it = items_[idx];
  if (rng_.Chance(0.2) || agent_run_ == 0) ++agent_run_;
  Begin("work", t);
  w_.Key(EventField::workProduct);
  WriteRef(it, false);
  w_.Key(EventField::sessionId).BeginStr();
  w_.Raw("buba-run-");
  w_.RawNum(agent_run_, 6);
  w_.EndStr();
  w_.Key(EventField::pipelineStage).Lit(kStages[it.stage]);
  w_.Key(EventField::mcpServerType).Lit(kServers[it.server].slug);
  w_.Key(EventField::priority).Lit(kPriorities[it.priority]);
  End();
  pending_[it.reviewer].push_back(idx);
  recent_work_[recent_work_count_++ % recent_work_.size()] = idx;
}

// ---- swarm: epics, subtasks, errors, outcomes ----

void Generator::PlanEpic(int64_t t) {
  const double p = Progress(t);
  // The planner learns to avoid file-type splits as they keep failing.
  const std::array<double, 4> strategy_w = {0.30 - 0.22 * p, 0.30 + 0.15 * p, 0.22,
                                            0.18 + 0.07 * p};
  const int strategy = rng_.Weighted(strategy_w);
  const int plan = strategy * 3 + static_cast<int>(rng_.Below(3));
  const Plan& pl = kPlans[plan];
  double success = 0;
  int n_patterns = 0;
  bool parallel = false;
  for (Pattern pt : pl.patterns) {
    if (pt == kNoPattern) continue;
    success += kPatternSuccess[pt];
    ++n_patterns;
    parallel |= pt == kMaximizeParallel;
  }
  success = Clamp(success / n_patterns + 0.08 * p, 0.05, 0.97);
  parallel |= rng_.Chance(0.4);
  const uint32_t epic = ++epics_;
  const uint8_t server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
  const uint8_t domain = static_cast<uint8_t>(rng_.Below(4));
  const uint8_t task = static_cast<uint8_t>(rng_.Below(kEpicTasks.size()));
  const int count = rng_.Between(2, 5);
  int64_t cursor = t;
  for (int i = 0; i < count; ++i) {
    Subtask st;
    st.epic = epic;
    st.index = static_cast<uint8_t>(i + 1);
    st.plan = static_cast<uint8_t>(plan);
    st.server = server;
    st.domain = domain;
    st.task = task;
    st.start = parallel ? t + rng_.Below(90) * kSecond : cursor;
    st.success = rng_.Chance(success);
    if (st.success) {
      st.errors = rng_.Chance(0.08) ? 1 : 0;
      st.resolved = st.errors;  // bit mask: every error of a success was fixed
    } else {
      const double u = rng_.U();
      st.errors = u < 0.3 ? 0 : u < 0.8 ? 1 : 2;
      for (int e = 0; e < st.errors; ++e) {
        if (rng_.Chance(0.1)) st.resolved |= static_cast<uint8_t>(1u << e);
      }
    }
    for (int e = 0; e < st.errors; ++e) {
      // File-type splits fight over reservations.
      const std::array<double, 5> type_w = {0.35, 0.2, strategy == 0 ? 0.9 : 0.1, 0.25, 0.1};
      st.error_types[e] = static_cast<uint8_t>(rng_.Weighted(type_w));
    }
    const bool timed_out = st.errors > 0 && st.error_types[0] == kTimeout && !st.success;
    const double dur = st.success
                           ? rng_.LogNormal(240 * kSecond, 0.6)
                           : rng_.LogNormal(timed_out ? 2100 * kSecond : 1500 * kSecond, 0.5);
    st.duration = std::max<int64_t>(60 * kSecond, Round(dur));
    st.retries = static_cast<uint8_t>(st.success ? std::popcount(static_cast<unsigned>(st.resolved))
                                                 : st.errors + rng_.Below(2));
    for (int c = 1 + static_cast<int>(rng_.Below(3)); c > 0; --c) {
      st.criteria |= static_cast<uint8_t>(1u << rng_.Below(kCriteria.size()));
    }
    st.files = static_cast<uint8_t>(1 + rng_.Below(15));
    st.message = static_cast<uint8_t>(rng_.Below(3));
    subtasks_.push_back(st);
    const uint32_t si = static_cast<uint32_t>(subtasks_.size() - 1);
    for (int e = 0; e < st.errors; ++e) {
      const int64_t at = st.start + Round(st.duration * (0.15 + 0.3 * e + 0.1 * rng_.U()));
      Schedule(at, kErrorStep, si, static_cast<uint32_t>(e));
      if (st.resolved & (1u << e)) {
        Schedule(at + Round(st.duration * (0.05 + 0.08 * rng_.U())) + 1, kResolveStep, si,
                 static_cast<uint32_t>(e));
      }
    }
    Schedule(st.start + st.duration, kOutcomeStep, si);
    cursor = st.start + st.duration + rng_.Below(120) * kSecond;
  }
}

void Generator::BeadId(const Subtask& st) {
  w_.BeginStr();
  w_.Raw("bd-");
  w_.RawNum(st.epic);
  w_.Raw(".");
  w_.RawNum(st.index);
  w_.EndStr();
}

void Generator::EmitError(int64_t t, uint32_t si, uint32_t e) {
  Subtask& st = subtasks_[si];
  const int type = st.error_types[e];
  st.error_ids[e] = Begin("error", t);
  w_.Key(EventField::bead_id);
  BeadId(st);
  w_.Key(EventField::error_type).Lit(kErrorTypes[type]);
  w_.Key(EventField::message).Lit(kErrorTexts[type].messages[(st.message + e) % 3]);
  if (rng_.Chance(0.2)) {
    w_.Key(EventField::stack_trace).BeginStr();
    w_.Raw("at validateInput (servers/");
    w_.Raw(kServers[st.server].slug);
    w_.Raw("/src/tools/");
    w_.Raw(kServers[st.server].domains[st.domain]);
    w_.Raw(".ts:");
    w_.RawNum(10 + rng_.Below(300));
    w_.Esc(":11)\n    at processBatch (src/sync.ts:88:5)");
    w_.EndStr();
  }
  w_.Key(EventField::tool_name).Lit(rng_.Pick(kErrorTexts[type].tools));
  if (rng_.Chance(0.7)) w_.Key(EventField::context).Lit(rng_.Pick(kErrorContexts));
  End();
}

void Generator::EmitResolution(int64_t t, uint32_t si, uint32_t e) {
  const Subtask& st = subtasks_[si];
  Begin("error", t);
  w_.Key(EventField::bead_id);
  BeadId(st);
  w_.Key(EventField::resolves).Uuid(st.error_ids[e]);
  w_.Key(EventField::context).Lit(rng_.Pick(kResolutions));
  End();
}

void Generator::EmitOutcome(int64_t t, uint32_t si) {
  const Subtask& st = subtasks_[si];
  const Plan& pl = kPlans[st.plan];
  const Server& s = kServers[st.server];
  Begin("outcome", t);
  w_.Key(EventField::bead_id);
  BeadId(st);
  w_.Key(EventField::duration_ms).Int(st.duration);
  w_.Key(EventField::error_count).Int(st.errors);
  w_.Key(EventField::retry_count).Int(st.retries);
  w_.Key(EventField::success).Bool(st.success);
  w_.Key(EventField::files_touched).Array();
  static constexpr std::array<std::string_view, 4> kFiles = {"/src/tools/", "/src/types.ts",
                                                             "/test/", "/src/client.ts"};
  for (int f = 0; f < 4; ++f) {
    if (!(st.files & (1u << f))) continue;
    w_.BeginStr();
    w_.Raw("servers/");
    w_.Raw(s.slug);
    w_.Raw(kFiles[f]);
    if (f == 0 || f == 2) {
      w_.Raw(s.domains[st.domain]);
      w_.Raw(f == 0 ? ".ts" : ".test.ts");
    }
    w_.EndStr();
  }
  w_.EndArray();
  w_.Key(EventField::strategy).Lit(kStrategies[pl.strategy]);
  if (!st.success) {
    if (st.errors > 0) {
      const int type = st.error_types[0];
      w_.Key(EventField::failure_mode).Lit(kFailureModes[type]);
      w_.Key(EventField::failure_details).Lit(kErrorTexts[type].messages[st.message % 3]);
    } else {
      const bool tests = rng_.Chance(0.6);
      w_.Key(EventField::failure_mode).Lit(tests ? "tests_failing" : "scope_creep");
      w_.Key(EventField::failure_details)
          .Lit(tests ? "Subtask finished but its tests fail on main"
                     : "Subtask touched files outside its reservation and was rolled back");
    }
  }
  w_.Key(EventField::criteria).Array();
  for (size_t c = 0; c < kCriteria.size(); ++c) {
    if (st.criteria & (1u << c)) w_.Lit(kCriteria[c]);
  }
  w_.EndArray();
  w_.Key(EventField::patterns).Array();
  for (Pattern pt : pl.patterns) {
    if (pt != kNoPattern) w_.Lit(learn::kDetectedStrategies[pt]);
  }
  w_.EndArray();
  w_.Key(EventField::description).BeginStr();
  w_.Raw(kEpicTasks[st.task]);
  w_.Raw(" to the ");
  w_.Raw(s.name);
  w_.Raw(" MCP server: ");
  w_.Raw(pl.text);
  w_.EndStr();
  End();
}

}  // namespace kaizen::sim::gen
