// The checks kaizen ships for the default theme taxonomy (text::ThemeTaxonomy::Default), one
// rule id per theme ("rule-<theme>"). Only themes a regex can judge honestly have one: retries,
// error-handling, types (`any`, @ts-ignore, `as unknown as`, bare # type: ignore), logging,
// input-validation, rate-limiting, documentation, security, response-checks (fetch without
// res.ok/status, requests without raise_for_status/status_code). naming, tests-and-edge-cases,
// performance, architecture, readability, concurrency, null-handling, magic-numbers, dead-code
// and dependencies need a person or a project's own command (`{"rule": "rule-tests-and-edge-cases",
// "command": ["npm", "test"]}` in <home>/config/checks.json). Every default is written to miss
// rather than to cry wolf: a false violation teaches the agent to ignore the gate.
#pragma once

#include <string_view>
#include <vector>

#include "checks/machine_check.h"
#include "kaizen/status.h"

namespace kaizen::checks {

// The shipped checks document (the same format as <home>/config/checks.json).
std::string_view DefaultChecksJson();

// DefaultChecksJson() parsed; origin "default checks". Never fails unless kaizen itself is
// broken (a unit test parses it).
Result<std::vector<CheckSpec>> DefaultChecks();

}  // namespace kaizen::checks
