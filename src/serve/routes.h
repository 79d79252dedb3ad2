// The routes of `kaizen serve`, independent of the HTTP library: a request in, a response out.
//
//   GET  /healthz                       {"status":"ok","events":N,"uptimeSeconds":S,
//                                       "cliAnswers":C (CLI verbs and hooks answered)}; no token
//   GET  /v1/analysis                   Learner::AnalysisJson
//   GET  /v1/context?server_type=&type=&stage=&dimensions=&project=&budget=&format=json|md
//   GET  /v1/hints[?format=json|md&project=]  the generated hints section (project: whose rules
//                                       besides the global layer's)
//   GET  /v1/rules                      the learned rules and the rejection-pattern registry
//   GET  /v1/tools                      the tools' names, descriptions and input schemas
//   GET  /v1/queue[?reviewer=]          work awaiting review, in the order to take it
//   GET  /v1/work/<id>[?version=]       a work product's file (under --root) and git diff
//   GET  /v1/kpis[?windowDays=&windows=] the KPIs over other windows (default 13 weeks)
//   GET  /v1/reviewers                  every reviewer's learned preferences
//   GET  /v1/corrections                the correction patterns (`kaizen corrections --json`)
//   GET  /, /assets/<file>              the web app: review queue, dashboard, rule audit
//   POST /v1/tools/<name>               Tools::Call with the body (a JSON object; empty: {})
//   POST /v1/events                     JSONL of mixed kinds, every line through Submit
//   POST /v1/<kind>                     one event of that kind (its `kind` field optional)
//   POST /v1/webhooks/github            a GitHub webhook delivery (routes_github.cc): signed with
//                                       X-Hub-Signature-256 instead of the bearer token
//   POST /v1/cli/{hook,context,hints}   a CLI verb answered from the live learner (routes_cli.cc)
//
// Every POST needs `Authorization: Bearer <token>`: 401 (with WWW-Authenticate) without it, 403
// with a wrong one, and 403 for an event its token's role may not write (serve/access.h). Every
// non-2xx body is serve/http_errors.h's JSON.
//
// POST /v1/events answers 200 when every line was stored (or skipped by the consent gate: not a
// refusal), 207 when some were stored and some refused (only the refused lines need resending),
// 422 when none was stored and some were refused, 400 for a body with no lines. The body lists
// each line: {"line":N,"status":"stored|skipped|refused","id"|"reason"|"errors"}.
// POST /v1/<kind> answers 201 with the id when stored, 200 when skipped, 422 with the field
// errors when refused, 400 when the body is not one JSON object.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "learn/learner.h"
#include "serve/access.h"
#include "serve/live_state.h"
#include "serve/routes_query.h"
#include "serve/tools.h"
#include "signals/git_agent.h"

namespace kaizen::serve {

struct HttpRequest {
  std::string_view method;  // GET, POST, ... (HEAD is answered as GET by the transport)
  std::string_view path;    // decoded, without the query string
  const QueryParams* params = nullptr;
  std::string_view body;
  std::string_view authorization;  // the Authorization header, empty when absent
  // GitHub's webhook headers (POST /v1/webhooks/github), empty when absent.
  std::string_view github_event;      // X-GitHub-Event
  std::string_view github_delivery;   // X-GitHub-Delivery
  std::string_view github_signature;  // X-Hub-Signature-256
};

// POST /v1/webhooks/github: the secret its signatures are checked with (nullopt: none configured,
// the route answers 503 saying how to configure one) and the agent pattern of `kaizen git scan`.
struct GithubWebhookConfig {
  std::optional<std::string> secret;
  signals::AgentMatcher agents;
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::string www_authenticate;  // set on 401/403
  std::string allow;             // set on 405
  bool close = false;            // answer with Connection: close (shutting down)
  bool web = false;              // a page or asset of the web app: sent with its security headers
};

// The time a read answers for: the server's clock, unless a CLI verb it answers for gave its
// --now (a time, or `end`: the newest event's).
struct AsOf {
  std::optional<int64_t> ms;
  bool newest = false;
  int64_t Of(const learn::Learner& learner, int64_t clock_ms) const;
};

class Routes {
 public:
  // REQUIRES: *state, *tools and *auth outlive the Routes. `auth`: who each POST's bearer token
  // names, and what they may write (serve/access.h).
  // `root`: where work products' paths are read from (empty: the current directory).
  // `github`: the webhook's configuration (nullopt: the route answers 503).
  Routes(LiveState* state, const Tools* tools, Authenticator* auth, std::string root = {},
         std::optional<GithubWebhookConfig> github = std::nullopt);

  using Done = std::function<void(HttpResponse response)>;

  // Answers `request` by calling `done` exactly once. An event submission (POST /v1/events,
  // /v1/<kind>) hands its events to LiveState's writer and returns: `done` then runs on the
  // writer thread once they are durable, so it must be quick. Every other route calls `done`
  // before returning. REQUIRES: the request's views stay valid until `done` is called.
  // Thread-safe; never throws (a failure is a 5xx JSON answer).
  void Handle(const HttpRequest& request, const Done& done) const;
  // Whether Handle(request) may hold its thread for long: a tool call (it may write and wait for
  // the fsync), a CLI verb (it waits for the writer's catch-up), the whole analysis, the web pages'
  // data (queue, KPIs, reviewers, corrections) and work products (files, git). The transport runs
  // these on a pool; every other route returns within a fraction of a millisecond (at most a wait
  // for the learner's read lock while a batch of new events is folded), so it runs where the
  // request was read.
  static bool MayBlock(std::string_view method, std::string_view path);

  // From now on every request is answered 503 with Connection: close. Idempotent, thread-safe.
  void BeginShutdown() { shutting_down_.store(true); }
  // How long since the last request was handed to Handle (since construction before the first).
  std::chrono::steady_clock::duration Idle() const {
    return std::chrono::steady_clock::now() -
           std::chrono::steady_clock::time_point(
               std::chrono::steady_clock::duration(last_request_.load()));
  }

 private:
  // The answer, or nullopt when an event submission will answer through `done`.
  std::optional<HttpResponse> Route(const HttpRequest& request, const Done& done) const;
  HttpResponse Get(std::string_view route, const QueryParams& params) const;
  std::optional<HttpResponse> Post(std::string_view route, const QueryParams& params,
                                   std::string_view body, const Principal& who,
                                   const Done& done) const;
  HttpResponse Healthz() const;
  HttpResponse Context(const QueryParams& params, const AsOf& as_of = AsOf()) const;
  HttpResponse Hints(const QueryParams& params, const AsOf& as_of = AsOf()) const;
  // routes_cli.cc: POST /v1/cli/<verb>
  HttpResponse Cli(std::string_view verb, const QueryParams& params, std::string_view body) const;
  HttpResponse Rules(const QueryParams& params) const;
  HttpResponse ToolList() const;
  HttpResponse CallTool(std::string_view name, std::string_view body, const Principal& who) const;
  std::optional<HttpResponse> SubmitOne(model::EventKind kind, std::string_view body,
                                        const Done& done) const;
  std::optional<HttpResponse> SubmitMany(std::string body, const Done& done) const;
  // routes_github.cc
  std::optional<HttpResponse> GithubWebhook(const HttpRequest& request, const Done& done) const;
  // routes_web.cc
  HttpResponse WebPage(std::string_view path) const;
  HttpResponse Queue(const QueryParams& params) const;
  HttpResponse Work(std::string_view artifact_id, const QueryParams& params) const;
  HttpResponse Kpis(const QueryParams& params) const;
  HttpResponse Corrections(const QueryParams& params) const;
  HttpResponse Reviewers(const QueryParams& params) const;

  LiveState* state_;
  const Tools* tools_;
  Authenticator* auth_;
  std::string root_;
  std::optional<GithubWebhookConfig> github_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> shutting_down_{false};
  mutable std::atomic<uint64_t> cli_answers_{0};  // POST /v1/cli/<verb> answered 200
  mutable std::atomic<std::chrono::steady_clock::rep> last_request_{
      std::chrono::steady_clock::now().time_since_epoch().count()};
};

}  // namespace kaizen::serve
