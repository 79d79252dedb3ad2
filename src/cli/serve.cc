// `kaizen serve [--host H] [--port P] [--threads N] [--max-body BYTES] [--timeout S] [--home H]
// [--now T] [--github-agent PATTERN]`: the HTTP/1.1 JSON API over the live learned state
// (serve/routes.h lists the routes).
// Loopback by default; every write needs the bearer token (home/token.h). SIGTERM or SIGINT
// stops it gracefully: every acknowledged event is durable, and it exits 0.
#include <fmt/format.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_checkpoint.h"
#include "home/learned_state.h"
#include "home/serve_client.h"
#include "home/token.h"
#include "serve/access.h"
#include "serve/github_webhook.h"
#include "serve/hints_keeper.h"
#include "serve/http_server.h"
#include "serve/live_state.h"
#include "serve/routes.h"
#include "serve/tools.h"
#include "signals/git_agent.h"
#include "store/shared_log.h"

namespace kaizen::cli {
namespace {

// POST /v1/webhooks/github's configuration: the secret (none: the route answers 503) and the
// agent pattern.
Result<serve::GithubWebhookConfig> GithubConfig(const Common& c, const std::string& agent) {
  auto agents = signals::AgentMatcher::Create(agent);
  if (!agents.ok()) return agents.status();
  auto secret = serve::LoadGithubSecret(c.home, std::getenv("KAIZEN_GITHUB_SECRET"));
  if (!secret.ok()) return secret.status();
  serve::GithubWebhookConfig config{std::nullopt, std::move(*agents)};
  if (*secret) config.secret = std::move((*secret)->value);
  return config;
}

int Serve(const Common& c, const serve::HttpServerOptions& options, const std::string* root,
          const std::string& github_agent, int idle_exit_seconds) {
  // Before any thread exists: only the server's signal thread may take SIGTERM/SIGINT.
  serve::BlockShutdownSignals();
  home::DisableCheckpointWrites();  // its check tool must not fork a threaded server to write one
  // --now first: a usage error must leave the home as it was, without a new token file in it.
  serve::LiveOptions live;
  live.home = c.home;
  live.store = c.store;
  if (c.now == "end") {
    live.now_is_newest = true;  // a replayed or demo history
  } else if (!c.now.empty()) {
    auto now = home::NowMs(c.now);
    if (!now.ok()) return home::FailVerb("serve", now.status());
    live.fixed_now_ms = *now;
  }
  auto token = home::LoadOrCreateToken(c.home, std::getenv("KAIZEN_TOKEN"));
  if (!token.ok()) return home::FailVerb("serve", token.status());
  if (token->created) {
    // Printed once, at the start that created it; later starts read it from the file.
    fmt::print(stderr, "kaizen serve: created the bearer token for writes in {} (mode 0600): {}\n",
               token->path, token->value);
  }
  auto github = GithubConfig(c, github_agent);
  if (!github.ok()) return home::FailVerb("serve", github.status());
  const bool github_on = github->secret.has_value();
  auto state = serve::LiveState::Open(live);
  if (!state.ok()) return home::FailVerb("serve", state.status());
  // The hints files `kaizen init` registered follow what the server learns.
  serve::HintsKeeper hints((*state).get(), c.home, std::chrono::seconds(2));
  serve::Tools tools(state->get());
  serve::Authenticator auth(token->value, c.home, c.store);
  serve::Routes routes(state->get(), &tools, &auth, *root, std::move(*github));
  // --idle-exit: a server started for a home's hooks (home/serve_client.h) leaves once nobody has
  // asked it anything for that long, the way SIGTERM stops it.
  std::mutex idle_mu;
  std::condition_variable idle_cv;
  bool serving_done = false;
  std::thread idle_watch;
  if (idle_exit_seconds > 0) {
    idle_watch = std::thread([&] {
      std::unique_lock<std::mutex> l(idle_mu);
      while (!idle_cv.wait_for(l, std::chrono::seconds(1), [&] { return serving_done; })) {
        if (routes.Idle() >= std::chrono::seconds(idle_exit_seconds)) {
          fmt::print(stderr, "kaizen serve: no request for {} s (--idle-exit): stopping\n",
                     idle_exit_seconds);
          ::kill(::getpid(), SIGTERM);
          return;
        }
      }
    });
  }
  Status s = serve::RunHttpServer(options, &routes, [&](const std::string& host, int port) {
    // Where the home's CLI verbs and hooks find this server; written before the line below says it
    // listens (home/serve_client.h).
    if (Status r = home::WriteServeRecord(c.home, host, port); !r.ok()) {
      fmt::print(stderr, "kaizen serve: hooks and CLI verbs will fold the log themselves: {}\n",
                 r.message());
    }
    // One parseable line: scripts and tests read the port from it (--port 0).
    fmt::print(stderr, "kaizen serve: listening on http://{}:{} ({} events, {} threads)\n", host,
               port, (*state)->events(), options.threads);
    fmt::print(stderr, "kaizen serve: review queue, dashboard and rule audit at http://{}:{}/\n",
               host, port);
    if (c.remote) {
      fmt::print(stderr, "kaizen serve: the log is the store {} (this home its working copy)\n",
                 c.remote->name());
    }
    fmt::print(stderr, "kaizen serve: GitHub webhook at http://{}:{}/v1/webhooks/github ({})\n",
               host, port,
               github_on ? "signed with the configured secret"
                         : "off: set KAIZEN_GITHUB_SECRET or write config/github-secret");
    if (token->created) {
      // With the new token, once: the page keeps it for the browser tab and drops it from the URL.
      fmt::print(stderr, "kaizen serve: sign the browser in with http://{}:{}/#token={}\n", host,
                 port, token->value);
    }
  });
  if (idle_watch.joinable()) {
    {
      std::lock_guard<std::mutex> l(idle_mu);
      serving_done = true;
    }
    idle_cv.notify_all();
    idle_watch.join();
  }
  home::RemoveServeRecord(c.home);
  // Every submission acknowledged or still queued becomes durable before the exit.
  (*state)->Shutdown();
  if (!s.ok()) return home::FailVerb("serve", s);
  fmt::print(stderr, "kaizen serve: stopped; {} events\n", (*state)->events());
  return kExitOk;
}

}  // namespace

Verb AddServeVerb(CLI::App& app, Common& c) {
  auto o = std::make_shared<serve::HttpServerOptions>();
  auto* sub = app.add_subcommand(
      "serve", "serve the HTTP/1.1 JSON API: record events, call tools, read context and rules");
  sub->add_option("--host", o->host, "the address to listen on (default 127.0.0.1: loopback)");
  sub->add_option("--port", o->port, "the port (default 8377; 0: any free port, printed)")
      ->check(CLI::Range(0, 65535));
  sub->add_option("--threads", o->threads,
                  "threads for the reads and tool calls that may wait (default 64); connections "
                  "are not limited by it, and concurrent event writes share one fsync")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--max-body", o->max_body,
                  "the largest request body in bytes (default 1048576); larger: 413")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  sub->add_option("--timeout", o->timeout_seconds,
                  "seconds to receive a request's headers, then its body, and to send an answer, "
                  "before the client is cut off (default 10)")
      ->check(CLI::Range(1, 3600));
  auto root = std::make_shared<std::string>();
  sub->add_option("--root", *root,
                  "where the review pages read work products' files (workProduct.path) and their "
                  "git diffs; nothing outside it is served (default: the current directory)")
      ->check(CLI::ExistingDirectory);
  auto github_agent = std::make_shared<std::string>(signals::kDefaultAgentPattern);
  sub->add_option("--github-agent", *github_agent,
                  "which pull requests POST /v1/webhooks/github treats as an agent's: an RE2 "
                  "regex, case-insensitive, on the author's login, the branch's first segment "
                  "and Co-authored-by trailers (default: `git scan`'s)");
  auto idle_exit = std::make_shared<int>(0);
  sub->add_option("--idle-exit", *idle_exit,
                  "stop after this many seconds without a request (default 0: never); a server "
                  "a hook starts for a large home uses 1800")
      ->check(CLI::Range(0, 31536000));
  AddCommonOptions(sub, c, false, true);
  return {sub, [&c, o, root, github_agent, idle_exit] {
            return Serve(c, *o, root.get(), *github_agent, *idle_exit);
          }};
}

}  // namespace kaizen::cli
