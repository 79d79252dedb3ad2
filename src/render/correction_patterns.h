// seed 004 MNEMIS "Create pattern YAML format": one file per learned correction pattern,
// `patterns/learned/<pattern_id>.yaml`, shaped like the seed's example (pattern_id, source, rule,
// confidence, applicable_to) plus the evidence (occurrences, approvals, rejections,
// consensus_score, status, examples). Also the rule and retry hint `kaizen validate` prints
// (seed 004 WARDEN: `prompt += "IMPORTANT: " + hint`).
//
// Everything learned from people's text (verbs, words, phrases, projects, users, examples) is
// sanitized or quoted with render/safe_text.h before it is written, then YAML-escaped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "learn/corrections/correction_patterns.h"
#include "learn/learner.h"
#include "render/artifact.h"

namespace kaizen::render {

inline constexpr std::string_view kLearnedPatternsDir = "patterns/learned/";

// The rule in words, e.g. "Replace passive constructions ('Responsible for X') with active verbs
// ('Led X')".
std::string CorrectionRule(const learn::CorrectionPattern& pattern);

// What a retry prompt should tell the model, e.g. "Use active voice: start with an action verb
// ('Led X'), not 'Responsible for X'." (without the "IMPORTANT: " prefix).
std::string CorrectionHint(const learn::CorrectionPattern& pattern);

// One pattern's YAML document.
std::string CorrectionPatternYaml(const learn::CorrectionPattern& pattern);

// `text` as a YAML double-quoted scalar (backslash, quote and control characters escaped).
std::string YamlQuoted(std::string_view text);

// patterns/learned/<pattern_id>.yaml for every formed pattern (rejected ones too: their status
// says so), sorted by path. `now_ms` is accepted for symmetry with the other artifacts: a
// pattern's evidence does not age, so the files do not depend on it.
std::vector<RenderedFile> CorrectionPatternFiles(const learn::Learner& learner, int64_t now_ms);

// `kaizen corrections --json` (and GET /v1/corrections): the thresholds and every pattern with its
// evidence, rule and hint; one line ending in '\n'.
std::string CorrectionsJson(const learn::CorrectionPatternLearner& learned, int64_t now_ms);

}  // namespace kaizen::render
