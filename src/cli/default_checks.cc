#include "cli/default_checks.h"

namespace kaizen::cli {

// Kept as data, in the checks.json format: one spec per (rule, language glob). Regexes are RE2;
// a forbid pattern with a capture group reports the group's line.
std::string_view DefaultChecksJson() {
  // clang-format off
  static constexpr std::string_view kJson = R"json(
{"checks": [
{"rule": "rule-retries", "glob": "**/*.[jt]s", "when": "\\bfetch\\(|\\baxios\\b|\\bgot\\(|\\bhttps?\\.(request|get)\\(|\\bky\\(", "require": "(?i)retr(y|ies|ying)|backoff", "message": "makes network calls but has no retry or backoff", "fix": "Wrap each external call in a retry with exponential backoff and jitter (e.g. 3 attempts, 2^n x 100 ms), retrying only transient failures (timeouts, 429, 5xx)."},
{"rule": "rule-retries", "glob": "**/*.[jt]sx", "when": "\\bfetch\\(|\\baxios\\b|\\bgot\\(|\\bhttps?\\.(request|get)\\(|\\bky\\(", "require": "(?i)retr(y|ies|ying)|backoff", "message": "makes network calls but has no retry or backoff", "fix": "Wrap each external call in a retry with exponential backoff and jitter (e.g. 3 attempts, 2^n x 100 ms), retrying only transient failures (timeouts, 429, 5xx)."},
{"rule": "rule-retries", "glob": "**/*.py", "when": "\\brequests\\.(get|post|put|patch|delete|request)\\(|\\bhttpx\\.|\\baiohttp\\b|\\burllib\\.request\\b", "require": "(?i)retr(y|ies|ying)|backoff|tenacity", "message": "makes network calls but has no retry or backoff", "fix": "Wrap each external call in a retry with exponential backoff and jitter (e.g. 3 attempts, 2^n x 100 ms), retrying only transient failures (timeouts, 429, 5xx)."},
{"rule": "rule-error-handling", "glob": "**/*.[jt]s", "forbid": "catch\\s*(?:\\([^)]*\\))?\\s*\\{\\s*\\}|\\.catch\\(\\s*\\(\\s*\\w*\\s*\\)\\s*=>\\s*(?:\\{\\s*\\}|null|undefined)\\s*\\)", "message": "an error is caught and silently dropped", "fix": "Handle the error: log it with context, return or rethrow a typed error, or explain in a comment why ignoring it is safe."},
{"rule": "rule-error-handling", "glob": "**/*.[jt]sx", "forbid": "catch\\s*(?:\\([^)]*\\))?\\s*\\{\\s*\\}|\\.catch\\(\\s*\\(\\s*\\w*\\s*\\)\\s*=>\\s*(?:\\{\\s*\\}|null|undefined)\\s*\\)", "message": "an error is caught and silently dropped", "fix": "Handle the error: log it with context, return or rethrow a typed error, or explain in a comment why ignoring it is safe."},
{"rule": "rule-error-handling", "glob": "**/*.java", "forbid": "catch\\s*(?:\\([^)]*\\))?\\s*\\{\\s*\\}|\\.catch\\(\\s*\\(\\s*\\w*\\s*\\)\\s*=>\\s*(?:\\{\\s*\\}|null|undefined)\\s*\\)", "message": "an error is caught and silently dropped", "fix": "Handle the error: log it with context, return or rethrow a typed error, or explain in a comment why ignoring it is safe."},
{"rule": "rule-error-handling", "glob": "**/*.cs", "forbid": "catch\\s*(?:\\([^)]*\\))?\\s*\\{\\s*\\}|\\.catch\\(\\s*\\(\\s*\\w*\\s*\\)\\s*=>\\s*(?:\\{\\s*\\}|null|undefined)\\s*\\)", "message": "an error is caught and silently dropped", "fix": "Handle the error: log it with context, return or rethrow a typed error, or explain in a comment why ignoring it is safe."},
{"rule": "rule-error-handling", "glob": "**/*.kt", "forbid": "catch\\s*(?:\\([^)]*\\))?\\s*\\{\\s*\\}|\\.catch\\(\\s*\\(\\s*\\w*\\s*\\)\\s*=>\\s*(?:\\{\\s*\\}|null|undefined)\\s*\\)", "message": "an error is caught and silently dropped", "fix": "Handle the error: log it with context, return or rethrow a typed error, or explain in a comment why ignoring it is safe."},
{"rule": "rule-error-handling", "glob": "**/*.cc", "forbid": "catch\\s*\\([^)]*\\)\\s*\\{\\s*\\}", "message": "an exception is caught and silently dropped", "fix": "Handle the exception: log it with context, convert it to an error value, or rethrow."},
{"rule": "rule-error-handling", "glob": "**/*.cpp", "forbid": "catch\\s*\\([^)]*\\)\\s*\\{\\s*\\}", "message": "an exception is caught and silently dropped", "fix": "Handle the exception: log it with context, convert it to an error value, or rethrow."},
{"rule": "rule-error-handling", "glob": "**/*.py", "forbid": "(?m)^[ \\t]*except\\b[^:\\n]*:\\s*(?:pass|\\.\\.\\.)[ \\t]*(?:#[^\\n]*)?$", "message": "an exception is caught and silently dropped", "fix": "Catch the specific exception and handle it: log with context, re-raise, or return an error."},
{"rule": "rule-types", "glob": "**/*.ts", "forbid": ":\\s*any\\b|\\bas\\s+any\\b|<any>", "message": "`any` switches off type checking", "fix": "Replace `any` with a precise type, a generic, or `unknown` narrowed by a type guard."},
{"rule": "rule-types", "glob": "**/*.tsx", "forbid": ":\\s*any\\b|\\bas\\s+any\\b|<any>", "message": "`any` switches off type checking", "fix": "Replace `any` with a precise type, a generic, or `unknown` narrowed by a type guard."},
{"rule": "rule-logging", "glob": "**/*.[jt]s", "forbid": "\\bconsole\\.(?:log|debug)\\(|\\bdebugger\\s*;", "message": "debug output left in the code", "fix": "Remove the debug output, or log through the project's logger at an explicit level."},
{"rule": "rule-logging", "glob": "**/*.[jt]sx", "forbid": "\\bconsole\\.(?:log|debug)\\(|\\bdebugger\\s*;", "message": "debug output left in the code", "fix": "Remove the debug output, or log through the project's logger at an explicit level."},
{"rule": "rule-input-validation", "glob": "**/*.[jt]s", "when": "\\breq\\.(?:body|query|params)\\b", "require": "(?i)validat|schema|\\bzod\\b|\\bjoi\\b|\\byup\\b|safeParse|\\.parse\\(|\\bajv\\b", "message": "reads request input without validating it", "fix": "Validate request bodies, queries and params against a schema (zod, joi, ajv) before use."},
{"rule": "rule-input-validation", "glob": "**/*.[jt]sx", "when": "\\breq\\.(?:body|query|params)\\b", "require": "(?i)validat|schema|\\bzod\\b|\\bjoi\\b|\\byup\\b|safeParse|\\.parse\\(|\\bajv\\b", "message": "reads request input without validating it", "fix": "Validate request bodies, queries and params against a schema (zod, joi, ajv) before use."},
{"rule": "rule-input-validation", "glob": "**/*.py", "when": "\\brequest\\.(?:json|args|form|get_json|values)\\b", "require": "(?i)validat|schema|pydantic|marshmallow", "message": "reads request input without validating it", "fix": "Validate request input with a schema (pydantic, marshmallow) before use."},
{"rule": "rule-rate-limiting", "glob": "**/*.[jt]s", "when": "\\b(?:app|router|server)\\.(?:get|post|put|patch|delete|route)\\(", "require": "(?i)rate.?limit|throttl|limiter|slow.?down", "message": "serves HTTP routes with no rate limiting", "fix": "Put a rate limiter (token bucket, e.g. express-rate-limit) in front of the routes and answer 429 with Retry-After."},
{"rule": "rule-rate-limiting", "glob": "**/*.[jt]sx", "when": "\\b(?:app|router|server)\\.(?:get|post|put|patch|delete|route)\\(", "require": "(?i)rate.?limit|throttl|limiter|slow.?down", "message": "serves HTTP routes with no rate limiting", "fix": "Put a rate limiter (token bucket, e.g. express-rate-limit) in front of the routes and answer 429 with Retry-After."},
{"rule": "rule-rate-limiting", "glob": "**/*.py", "when": "@(?:app|router|bp|blueprint|api)\\.(?:get|post|put|patch|delete|route)\\(", "require": "(?i)rate.?limit|throttl|limiter", "message": "serves HTTP routes with no rate limiting", "fix": "Put a rate limiter in front of the routes (e.g. slowapi, flask-limiter) and answer 429."},
{"rule": "rule-documentation", "glob": "**/*.[jt]s", "forbid": "(?:\\A|[^/\\s])\\s*\\n[ \\t]*(export[ \\t]+(?:default[ \\t]+)?(?:async[ \\t]+)?function\\b)|\\A[ \\t]*(export[ \\t]+(?:default[ \\t]+)?(?:async[ \\t]+)?function\\b)", "message": "exported function without a JSDoc comment", "fix": "Add a JSDoc comment (/** ... */ with @param, @returns, @throws) above every exported function."},
{"rule": "rule-documentation", "glob": "**/*.[jt]sx", "forbid": "(?:\\A|[^/\\s])\\s*\\n[ \\t]*(export[ \\t]+(?:default[ \\t]+)?(?:async[ \\t]+)?function\\b)|\\A[ \\t]*(export[ \\t]+(?:default[ \\t]+)?(?:async[ \\t]+)?function\\b)", "message": "exported function without a JSDoc comment", "fix": "Add a JSDoc comment (/** ... */ with @param, @returns, @throws) above every exported function."},
{"rule": "rule-documentation", "glob": "**/*.py", "forbid": "(?m)^(?:async[ \\t]+)?def[ \\t]+([A-Za-z]\\w*)[ \\t]*\\([^)]*\\)[^:\\n]*:[ \\t]*(?:#[^\\n]*)?\\n(?:[ \\t]*\\n)*[ \\t]*[^\\s\\\"'#]", "message": "public function without a docstring", "fix": "Add a docstring saying what the function does, its arguments, return value and errors."},
{"rule": "rule-security", "glob": "**/*", "forbid": "(?i)\\b(?:api[_-]?key|secret|passw(?:or)?d|access[_-]?token|auth[_-]?token|client[_-]?secret)[\\\"']?\\s*[:=]\\s*[\\\"'][^\\\"'\\s]{8,}[\\\"']|\\bAKIA[0-9A-Z]{16}\\b|-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----", "message": "a secret is written into the code", "fix": "Read secrets from the environment or a secret manager; never commit them."},
{"rule": "rule-security", "glob": "**/*.[jt]s", "forbid": "\\beval\\(|\\bnew\\s+Function\\(", "message": "code built from strings at run time", "fix": "Do not eval: parse data with JSON.parse and dispatch on it explicitly."},
{"rule": "rule-security", "glob": "**/*.[jt]sx", "forbid": "\\beval\\(|\\bnew\\s+Function\\(", "message": "code built from strings at run time", "fix": "Do not eval: parse data with JSON.parse and dispatch on it explicitly."},
{"rule": "rule-security", "glob": "**/*.py", "forbid": "\\beval\\(|\\bexec\\(|\\bshell\\s*=\\s*True\\b|\\bpickle\\.loads?\\(", "message": "unsafe evaluation, shell or deserialization", "fix": "Avoid eval/exec, pass argument lists instead of shell=True, and never unpickle untrusted data."}
]}
)json";
  // clang-format on
  return kJson;
}

Result<std::vector<CheckSpec>> DefaultChecks() {
  std::vector<CheckSpec> specs;
  learn::SelfCheckConfig unused;  // the defaults carry no settings
  KZ_RETURN_IF_ERROR(ParseChecksJson(DefaultChecksJson(), "default checks", &specs, &unused));
  return specs;
}

}  // namespace kaizen::cli
