// The history's `correction` lines (seed 004) and refinement `loop` lines (seed 003): episodes of
// several lines, each line scheduling the next, apart from the agent's and reviewers' work.
#include "sim/gen_generator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace kaizen::sim::gen {

using model::ContextField;
using model::EventField;

// ---- corrections ----

void Generator::StartCorrections(int64_t t) {
  CorrectionSession cs;
  cs.start = t;
  cs.date = Yyyymmdd(t);
  cs.user = static_cast<uint8_t>(rng_.Below(kUsers.size()));
  cs.project = cs.user == 0 ? 0 : cs.user == 1 ? 1 : (rng_.Chance(0.6) ? 0 : 1);
  cs.size = static_cast<uint8_t>(1 + rng_.Weighted(std::array<double, 4>{0.35, 0.3, 0.2, 0.15}));
  cs.model = Progress(t) > 0.6 ? 1 : 0;
  corrections_.push_back(cs);
  Schedule(Next(human_cal_, t, correction_gap_), kCorrectionSessionStep);
  EmitCorrection(t, static_cast<uint32_t>(corrections_.size() - 1), 0);
}

void Generator::EmitCorrection(int64_t t, uint32_t ci, uint32_t pos) {
  const CorrectionSession cs = corrections_[ci];
  const double p = Progress(t);
  const auto& types = CorrectionTypes();
  std::array<double, 17> weights{};
  for (size_t i = 0; i < types.size() && i < weights.size(); ++i) {
    weights[i] = types[i].project == cs.project ? types[i].weight * (1 - types[i].decline * p) : 0;
  }
  const CorrectionType& ct = types[rng_.Weighted(weights)];
  const auto& pair = rng_.Pick(ct.pairs);
  Begin("correction", t);
  w_.Key(EventField::session_id).BeginStr();
  w_.Raw(cs.project == 0 ? "jseeker_" : "via_");
  w_.RawNum(cs.date, 8);
  w_.Raw("_");
  w_.RawNum(static_cast<uint64_t>(cs.start % kDay / kSecond / 3600 * 10000 +
                                  cs.start % kHour / kMinute * 100 + cs.start % kMinute / kSecond),
            6);
  w_.EndStr();
  w_.Key(EventField::correction_type).Lit(ct.name);
  w_.Key(EventField::original).Str(pair.first);
  w_.Key(EventField::corrected).Str(pair.second);
  w_.Key(EventField::context).Object();
  if (cs.project == 0) {
    w_.Key(EventField::project).Lit("jSeeker");
    w_.Key(ContextField::operation).Lit("resume_adaptation");
    w_.Key(ContextField::section).Lit(rng_.Pick(kResumeSections));
    w_.Key(ContextField::prompt_template).Lit(p > 0.5 ? "adaptation_v3" : "adaptation_v2");
  } else {
    w_.Key(EventField::project).Lit("VIA");
    w_.Key(ContextField::operation).Lit("claim_extraction");
    w_.Key(ContextField::document_id).BeginStr();
    w_.Raw("doc-");
    w_.RawNum(1000 + rng_.Below(9000));
    w_.EndStr();
    w_.Key(ContextField::prompt_template).Lit("claims_v1");
  }
  w_.Key(ContextField::model).Lit(cs.model ? "claude-sonnet-4.5" : "claude-sonnet-4");
  w_.EndObject();
  w_.Key(EventField::user_id).Lit(kUsers[cs.user]);
  const int method = rng_.Weighted(std::array<double, 3>{0.65, cs.project == 1 ? 0.3 : 0.1, 0.2});
  w_.Key(EventField::correction_method)
      .Lit(method == 0   ? "manual_edit"
           : method == 1 ? "rejection"
                         : "feedback_form");
  End();
  if (pos + 1 < cs.size) {
    Schedule(t + Round(rng_.LogNormal(90 * kSecond, 0.8)), kCorrectionStep, ci, pos + 1);
  }
}

// ---- refinement loops ----

void Generator::StartLoop(int64_t t) {
  const double p = Progress(t);
  Loop l;
  l.number = ++loop_count_;
  l.server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
  l.domain = static_cast<uint8_t>(rng_.Below(4));
  l.coverage = Clamp(0.45 + 0.15 * p + 0.1 * rng_.Normal(), 0.05, 0.95);
  l.quality = Clamp(0.55 + 0.12 * p + 0.08 * rng_.Normal(), 0.1, 0.95);
  l.security = Clamp(0.6 + 0.15 * p + 0.1 * rng_.Normal(), 0.1, 0.98);
  l.types = Clamp(0.6 + 0.1 * p + 0.1 * rng_.Normal(), 0.1, 0.98);
  l.docs = Clamp(0.35 + 0.2 * p + 0.12 * rng_.Normal(), 0.0, 0.95);
  l.vulnerabilities = static_cast<int>(rng_.Below(4));
  l.type_errors = static_cast<int>(rng_.Below(9));
  l.tests = 20 + static_cast<int>(rng_.Below(80));
  loops_.push_back(l);
  Schedule(Next(flat_cal_, t, loop_gap_), kLoopStartStep);
  EmitLoopIteration(t, static_cast<uint32_t>(loops_.size() - 1));
}

void Generator::EmitLoopIteration(int64_t t, uint32_t li) {
  Loop& l = loops_[li];
  ++l.iteration;
  if (l.iteration > 1) {  // each refinement fixes part of what the last feedback named
    l.coverage = std::min(0.98, l.coverage + 0.06 + 0.04 * rng_.U());
    l.quality = std::min(0.98, l.quality + 0.04 + 0.03 * rng_.U());
    l.security = std::min(0.99, l.security + 0.03 + 0.04 * rng_.U());
    l.types = std::min(0.99, l.types + 0.04 + 0.03 * rng_.U());
    l.docs = std::min(0.98, l.docs + 0.05 + 0.05 * rng_.U());
    l.vulnerabilities = std::max(0, l.vulnerabilities - 1);
    l.type_errors = std::max(0, l.type_errors - 2 - static_cast<int>(rng_.Below(3)));
    l.tests += 3 + static_cast<int>(rng_.Below(10));
  }
  const bool passing =
      l.type_errors == 0 && l.coverage > 0.55 && (l.iteration > 1 || rng_.Chance(0.3));
  const double overall =
      0.3 * l.coverage + 0.25 * l.quality + 0.2 * l.security + 0.15 * l.types + 0.1 * l.docs;
  // Seed 003: halt when tests pass and the weighted quality clears 0.75, or at 5 iterations.
  const bool halt = (passing && overall > 0.75) || l.iteration >= 5;
  const double elapsed = Clamp(rng_.LogNormal(300, 0.6), 30, 3600);
  Begin("loop", t);
  w_.Key(EventField::loop_id).BeginStr();
  w_.Raw("loop-");
  w_.Raw(kServers[l.server].slug);
  w_.Raw("-");
  w_.RawNum(l.number, 5);
  w_.EndStr();
  w_.Key(EventField::iteration).Int(l.iteration);
  w_.Key(EventField::metrics).Object();
  w_.Key(EventField::test_coverage).Num(l.coverage, 3);
  w_.Key(EventField::tests_passing).Bool(passing);
  w_.Key(EventField::test_count).Int(l.tests);
  w_.Key(EventField::code_quality_score).Num(l.quality, 3);
  w_.Key(EventField::security_score).Num(l.security, 3);
  w_.Key(EventField::vulnerabilities).Int(l.vulnerabilities);
  w_.Key(EventField::type_coverage).Num(l.types, 3);
  w_.Key(EventField::type_errors).Int(l.type_errors);
  w_.Key(EventField::doc_coverage).Num(l.docs, 3);
  w_.Key(EventField::overall_quality).Num(overall, 3);
  w_.EndObject();
  w_.Key(EventField::cost).Num(Clamp(rng_.LogNormal(0.18, 0.5), 0.01, 5), 3);
  w_.Key(EventField::elapsed_seconds).Num(elapsed, 1);
  w_.Key(EventField::feedback).BeginStr();
  const std::string_view domain = kServers[l.server].domains[l.domain];
  if (l.type_errors > 0) {
    w_.RawNum(static_cast<uint64_t>(l.type_errors));
    w_.Raw(" type errors in src/");
    w_.Raw(domain);
    w_.Raw(".ts; fix them before anything else");
  } else if (!passing) {
    w_.Raw("Tests failing in test/");
    w_.Raw(domain);
    w_.Raw(".test.ts; add a null check for missing fields");
  } else if (l.vulnerabilities > 0) {
    w_.RawNum(static_cast<uint64_t>(l.vulnerabilities));
    w_.Raw(" vulnerabilities in dependencies; upgrade and validate inputs");
  } else if (l.coverage < 0.8) {
    w_.Raw("Coverage at ");
    w_.RawNum(static_cast<uint64_t>(Round(l.coverage * 100)));
    w_.Raw("%; add tests for the error paths in ");
    w_.Raw(domain);
  } else if (l.docs < 0.7) {
    w_.Raw("Document the exported ");
    w_.Raw(domain);
    w_.Raw(" functions");
  } else {
    w_.Raw("Quality bar met; ready for review");
  }
  w_.EndStr();
  End();
  if (!halt) Schedule(t + Round(elapsed * kSecond), kLoopStep, li);
}

}  // namespace kaizen::sim::gen
