#include "learn/rules/rule_catalog.h"

#include <array>

namespace kaizen::learn {
namespace {

struct Entry {
  std::string_view theme;
  RuleWording wording;
};

const std::array<Entry, 19>& Catalog() {
  static const std::array<Entry, 19> catalog{{
      {"error-handling",
       {"error-handling", "Handle errors with specific, typed errors that carry context",
        "ALWAYS use typed errors with actionable context; NEVER catch-all or swallow errors",
        "Generic or missing error handling",
        "Error paths use typed errors with actionable context (not just \"Error occurred\")",
        "Replace generic catches with typed errors that say what failed and what to do", false}},
      {"input-validation",
       {"security", "Validate all inputs at function and API boundaries",
        "ALWAYS validate inputs at public boundaries before using them",
        "No input validation at boundaries", "Input validation on all public function parameters",
        "Add schema or range checks where external input enters", false}},
      {"naming",
       {"naming", "Use descriptive names; no abbreviations or single letters outside loops",
        "PREFER descriptive verb-noun names (fetchUser, validateInput); NEVER cryptic "
        "abbreviations",
        "Unclear or abbreviated names", "Names are descriptive; no cryptic abbreviations",
        "Rename unclear identifiers after what they hold or do", true}},
      {"tests-and-edge-cases",
       {"test-coverage", "Test the edge cases: empty input, nulls, Unicode, limits, failures",
        "ALWAYS include tests for edge cases and failure paths",
        "Missing tests or untested edge cases",
        "Tests cover edge cases (empty, null, Unicode, limits) and failure paths",
        "Add tests for the empty, null, boundary and failure cases", false}},
      {"documentation",
       {"documentation", "Document every public function: parameters, results, errors",
        "ALWAYS document public functions with their parameters, return values and errors",
        "Missing or incomplete documentation", "Every public function is documented",
        "Add doc comments to every exported function", true}},
      {"rate-limiting",
       {"security", "Rate-limit every HTTP-facing tool and external API use",
        "ALWAYS implement rate limiting on HTTP-facing tools and external API calls",
        "Missing rate limiting", "Rate limiting implemented on all HTTP-facing tools",
        "Add a rate limiter in front of external calls and public endpoints", false}},
      {"retries",
       {"error-handling", "Every external call retries with exponential backoff",
        "ALWAYS include retry logic with exponential backoff on external calls (base 1s, max 30s, "
        "3 attempts)",
        "Missing retry logic on external calls",
        "All external API calls have retry logic with exponential backoff",
        "Wrap external calls in a retry with exponential backoff (base 1s, max 30s, 3 attempts)",
        true}},
      {"security",
       {"security", "No secrets in code; sanitize and authorize everything external",
        "NEVER hardcode secrets; ALWAYS sanitize external input and check authorization",
        "Security weaknesses (secrets, injection, missing auth)",
        "No hardcoded secrets; external input sanitized; authorization checked",
        "Move secrets to configuration and sanitize external input", false}},
      {"performance",
       {"performance", "Avoid needless work on hot paths; measure before optimizing",
        "PREFER efficient algorithms on hot paths; AVOID needless allocations and repeated work",
        "Performance problems on hot paths",
        "Hot paths avoid repeated work and needless allocation",
        "Remove repeated work from loops and cache what is reused", false}},
      {"types",
       {"code-quality", "Use precise types; no `any`",
        "NEVER use `any`, `as unknown as` casts or untyped values, and NEVER silence the checker "
        "(@ts-ignore, # type: ignore, # noqa); use precise types with type guards",
        "Untyped code or silenced type checks (`any`, @ts-ignore, # type: ignore)",
        "Strict types everywhere: no `any`, no double casts, no ignore comments",
        "Replace `any` with precise types or `unknown` plus type guards, and fix the type error "
        "instead of silencing it",
        true}},
      {"architecture",
       {"architecture", "Keep concerns separated and modules loosely coupled",
        "PREFER small focused modules with clear boundaries; AVOID tight coupling",
        "Tightly coupled or tangled structure",
        "Concerns are separated; modules are loosely coupled",
        "Split the module along its responsibilities", false}},
      {"readability",
       {"code-quality", "Write code that reads easily: small functions, clear flow",
        "PREFER small focused functions and explicit control flow over clever code",
        "Hard-to-read code", "Functions are small and read top to bottom",
        "Break long functions up and name the steps", false}},
      {"logging",
       {"code-quality", "Log through a structured logger, not console prints",
        "ALWAYS log through the structured logger with context; NEVER console.log for errors",
        "Ad-hoc or missing logging", "Errors are logged through the structured logger with context",
        "Replace console prints with the structured logger", true}},
      {"concurrency",
       // The theme takes async/await as well as threads and locks: reviewers and people
       // correcting their agent ask for async work done the async way as often as for guards.
       {"code-quality", "Handle concurrency deliberately: async work awaited, shared state guarded",
        "ALWAYS do asynchronous work with async/await and await it; ALWAYS guard shared mutable "
        "state; AVOID lock-order inversions and unbounded concurrency",
        "Unawaited async work, race conditions or unsafe concurrency",
        "Async work is awaited; shared state is guarded; concurrency is bounded",
        "Await the async work, guard the shared state and bound the concurrency", false}},
      {"null-handling",
       {"error-handling", "Check values that can be null, None or undefined before using them",
        "ALWAYS handle the null/None/undefined case of a value before using it; NEVER assume an "
        "optional value is set",
        "Unhandled null, None or undefined values",
        "Every value that can be null, None or undefined is checked before use",
        "Add an explicit check for the missing value (or make the type non-optional) where it is "
        "read",
        false}},
      {"response-checks",
       {"error-handling", "Check every response's status before using its body",
        "ALWAYS check the response status (res.ok, the status code) before parsing or using the "
        "body; NEVER assume a call succeeded",
        "Unchecked responses and status codes",
        "Every response's status (res.ok, status code) is checked before its body is used",
        "Check res.ok (or the status code) and fail with an error that names the call and the "
        "status",
        true}},
      {"magic-numbers",
       {"code-quality", "Name constants; no unexplained literal numbers or strings",
        "NEVER leave magic numbers or hard-coded strings in code; ALWAYS give them a named "
        "constant that says what they mean",
        "Magic numbers or hard-coded values",
        "No unexplained literal numbers or strings; constants are named",
        "Replace the literal with a named constant (e.g. SECONDS_PER_DAY = 86400)", true}},
      {"dead-code",
       {"code-quality", "Remove dead code: unused, unreachable or commented-out",
        "NEVER leave unused variables, imports or functions, unreachable branches or "
        "commented-out code behind",
        "Dead, unused or commented-out code", "No unused, unreachable or commented-out code",
        "Delete the unused code; version control keeps the history", true}},
      {"dependencies",
       {"architecture", "Add a dependency only when it earns its place",
        "PREFER the standard library and the project's existing dependencies; NEVER add a new "
        "package without saying why",
        "Unneeded or poorly chosen dependencies",
        "No new dependency where the standard library or an existing one does the job",
        "Use the standard library or an existing dependency, or justify the new one", false}},
  }};
  return catalog;
}

}  // namespace

RuleWording WordingFor(std::string_view theme) {
  for (const Entry& e : Catalog()) {
    if (e.theme == theme) return e.wording;
  }
  // A custom taxonomy's theme: its name is a lowercase slug ([a-z0-9][a-z0-9_-]*), safe to show.
  std::string name(theme);
  for (char& ch : name) {
    if (ch == '-' || ch == '_') ch = ' ';
  }
  RuleWording w;
  w.domain = "code-quality";
  // Quoted: the name may come from a reviewer's annotation category, and is data, not an order.
  const std::string quoted = "\u201c" + name + "\u201d";
  w.rule = "Address " + quoted + " before submitting";
  w.instruction = "ALWAYS check " + quoted + " before submitting: reviewers keep rejecting it";
  w.rejection_pattern = "Problems with " + quoted;
  w.checklist_item = quoted + " checked against past review feedback";
  w.fix_suggestion = "Review the " + quoted + " feedback and address it";
  return w;
}

}  // namespace kaizen::learn
