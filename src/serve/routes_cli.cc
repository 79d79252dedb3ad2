// POST /v1/cli/<verb>: the CLI's learning verbs answered from the live learner, for a `kaizen
// hook`, `kaizen context` or `kaizen hints` run while this server is up (home/serve_client.h has
// the client and why). The bearer token proves the caller reads the same home.
//
//   hook?agent=&budget=&now=       body: the agent's hook payload
//                                  -> {"output": what the hook prints, "notes": [for hook.log]}
//   context?server_type=&type=&stage=&dimensions=&budget=&format=json|md&now=
//                                  -> what `kaizen context` prints
//   hints?now=                     -> the learned hints section `kaizen hints` writes
//
// `now` is the verb's --now (ISO 8601, or `end`: the newest event's time); absent: the clock.
// Each first folds what other processes appended (LiveState::CatchUp), so the answer is the one a
// fold of the whole log would give; 409 when the config changed since the server started (the
// CLI then folds the log itself). A hook step that fails answers 200 with its "error": the hook
// logs it as its own envelope would, and never runs the step again.
#include <fmt/format.h>

#include "agents/hook_payload.h"
#include "agents/hook_steps.h"
#include "base/json_writer.h"
#include "home/clock.h"
#include "serve/responses.h"
#include "serve/routes.h"

namespace kaizen::serve {
namespace {

// The hook's steps with the live learner: reads under its shared lock, events through Submit (so
// a later read of the same call sees them).
class LiveHookBackend : public agents::HookBackend {
 public:
  LiveHookBackend(LiveState* state, const AsOf& as_of) : state_(state), as_of_(as_of) {}

  Status WithLearner(learn::Parts, const LearnerFn& fn) override {
    Status s;
    state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
      s = fn(learner, as_of_.Of(learner, now_ms));
    });
    return s;
  }

  Result<home::StoredEvent> Store(model::EventKind kind, const std::string& json,
                                  int64_t now_ms) override {
    SubmitResult result;
    KZ_RETURN_IF_ERROR(state_->Submit(json, kind, &result, now_ms));
    home::StoredEvent out;
    std::string refused;
    for (const LineOutcome& line : result.lines) {
      if (line.stored) out.id = line.id;
      if (line.skipped) {
        out.skipped = true;
        out.skip_reason = line.skip_reason;
      }
      for (const auto& e : line.errors) {
        refused += (refused.empty() ? "" : "; ") + e.ToString();
      }
    }
    if (!refused.empty()) {
      return InvalidArgument(
          fmt::format("the {} event was refused: {}", model::KindName(kind), refused));
    }
    return out;
  }

 private:
  LiveState* state_;
  AsOf as_of_;  // the time a read answers for
};

// `params` without `now`, for the checks of the GET route the verb mirrors.
QueryParams Without(const QueryParams& params, const std::string& name) {
  QueryParams out = params;
  out.erase(name);
  return out;
}

}  // namespace

HttpResponse Routes::Cli(std::string_view verb, const QueryParams& params,
                         std::string_view body) const {
  if (verb != "hook" && verb != "context" && verb != "hints") {
    return Error(404, fmt::format("no route /v1/cli/{}: the CLI's verbs here are hook, context "
                                  "and hints",
                                  verb));
  }
  AsOf as_of;
  std::string now_flag;
  if (const std::string* now = Param(params, "now")) {
    now_flag = *now;
    if (*now == "end") {
      as_of.newest = true;
    } else {
      Result<int64_t> ms = home::NowMs(*now);
      if (!ms.ok())
        return Error(400, "bad query parameters", {{"query.now", ms.status().message()}});
      as_of.ms = *ms;
    }
  }
  if (Status s = state_->CatchUp(); !s.ok()) {
    // Nothing was done: the client answers itself (409 and 503 are "declined").
    return Error(s.code() == StatusCode::kFailedPrecondition ? 409 : 503, s.message());
  }
  if (verb == "context" || verb == "hints") {
    QueryParams read = Without(params, "now");
    if (verb == "hints") read.emplace("format", "md");
    HttpResponse r = verb == "context" ? Context(read, as_of) : Hints(read, as_of);
    if (r.status == 200) ++cli_answers_;
    return r;
  }

  // hook
  std::vector<ingest::FieldError> errors = CheckParams(params, {"agent", "budget", "now"});
  int64_t budget = 2000;
  if (auto e = ParseIntParam(params, "budget", 100, 200000, &budget)) errors.push_back(*e);
  std::optional<agents::HookAgent> agent;
  if (const std::string* a = Param(params, "agent")) {
    agent = agents::ParseHookAgent(*a);
    if (!agent)
      errors.push_back(
          {"query.agent", fmt::format("\"{}\" is not claude-code, codex or goose", *a)});
  }
  if (!errors.empty()) return Error(400, "bad query parameters", errors);
  Result<agents::HookPayload> payload = agents::ParseHookPayload(body, agent);
  if (!payload.ok()) return Error(400, payload.status().message(), {}, "bad_payload");
  LiveHookBackend backend(state_, as_of);
  home::Common common;
  common.home = state_->home();
  common.now = now_flag;
  const int64_t now_ms = as_of.ms.value_or(state_->Now());
  agents::HookContext ctx{common, &backend, *payload, now_ms, static_cast<size_t>(budget), {}};
  // The step's failure is its answer, as the CLI's fail-open envelope logs it: a status the client
  // reads as "not done" would make it run the step again.
  Result<std::string> output = agents::RunHookStep(ctx);
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "output");
  base::Str(w, output.ok() ? *output : std::string());
  if (!output.ok()) {
    base::Key(w, "error");
    base::Str(w, output.status().message());
  }
  base::Key(w, "notes");
  w.StartArray();
  for (const std::string& note : ctx.notes) base::Str(w, note);
  w.EndArray();
  w.EndObject();
  ++cli_answers_;
  return Json(200, b.GetString());
}

}  // namespace kaizen::serve
