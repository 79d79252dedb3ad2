#include "serve/routes.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <exception>
#include <memory>
#include <vector>

#include "base/json_writer.h"
#include "home/token.h"
#include "learn/rules/rule_book.h"
#include "render/context.h"
#include "render/hints.h"
#include "serve/field_errors_json.h"
#include "serve/http_errors.h"
#include "serve/responses.h"

namespace kaizen::serve {
namespace {

constexpr std::string_view kGetRoutes =
    "analysis, context, corrections, hints, kpis, queue, reviewers, rules, tools, work/<id>";

HttpResponse FromStatus(const Status& s) { return Error(HttpStatusFor(s), s.message()); }

HttpResponse Markdown(std::string body) {
  HttpResponse r;
  r.body = std::move(body);
  r.content_type = "text/markdown; charset=utf-8";
  return r;
}

HttpResponse MethodNotAllowed(std::string_view method, std::string_view path,
                              std::string_view allow) {
  HttpResponse r = Error(405, fmt::format("{} {}: only {} is allowed here", method, path, allow));
  r.allow = allow;
  return r;
}

// The body as one JSON object, else the 400 that says why.
std::optional<HttpResponse> CheckJsonObject(std::string_view body, std::string_view what) {
  thread_local simdjson::dom::parser
      parser;  // one per connection thread: no allocation per request
  simdjson::dom::element doc;
  if (auto err = parser.parse(body.data(), body.size()).get(doc); err) {
    return Error(
        400, fmt::format("the body is not valid JSON: {}", ingest::DescribeParseError(err, body)),
        {{"(body)", ingest::DescribeParseError(err, body)}}, "bad_json");
  }
  if (!doc.is_object()) {
    return Error(400, fmt::format("the body must be one JSON object ({})", what),
                 {{"(body)", "is not an object"}}, "bad_json");
  }
  return std::nullopt;
}

// POST /v1/events' answer: a status per line, and the 422 envelope when every line was refused.
HttpResponse LinesAnswer(const SubmitResult& submitted) {
  const ingest::IngestSummary& sum = submitted.summary;
  std::vector<ingest::FieldError> all_errors;  // for the 422 envelope: "line N: path"
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "stored");
  w.Uint64(sum.stored);
  base::Key(w, "skipped");
  w.Uint64(sum.skipped);
  base::Key(w, "refused");
  w.Uint64(sum.rejected);
  base::Key(w, "lines");
  w.StartArray();
  for (const LineOutcome& line : submitted.lines) {
    w.StartObject();
    base::Key(w, "line");
    w.Uint64(line.line_number);
    base::Key(w, "status");
    base::Str(w, line.stored ? "stored" : line.skipped ? "skipped" : "refused");
    if (line.stored) {
      base::Key(w, "id");
      base::Str(w, line.id);
    } else if (line.skipped) {
      base::Key(w, "reason");
      base::Str(w, line.skip_reason);
    } else {
      base::Key(w, "errors");
      WriteFieldErrors(w, line.errors);
      for (const ingest::FieldError& e : line.errors) {
        all_errors.push_back({fmt::format("line {}: {}", line.line_number, e.path), e.message});
      }
    }
    w.EndObject();
  }
  w.EndArray();
  const int status = sum.rejected == 0 ? 200 : sum.stored + sum.skipped == 0 ? 422 : 207;
  if (status == 422) {
    // Everything was refused: the common error envelope, with the per-line detail beside it.
    base::Key(w, "error");
    w.StartObject();
    base::Key(w, "code");
    base::Str(w, "invalid_event");
    base::Key(w, "message");
    base::Str(w, fmt::format("all {} line(s) were refused", sum.rejected));
    base::Key(w, "errors");
    WriteFieldErrors(w, all_errors);
    w.EndObject();
  }
  w.EndObject();
  return Json(status, b.GetString());
}

// What `make` gives, or a 500 when it throws (the answer is built on the writer thread, where an
// exception must not escape).
template <typename Make>
HttpResponse Answered(const Make& make) {
  try {
    return make();
  } catch (const std::exception& e) {
    return Error(500, fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace

Routes::Routes(LiveState* state, const Tools* tools, Authenticator* auth, std::string root,
               std::optional<GithubWebhookConfig> github)
    : state_(state),
      tools_(tools),
      auth_(auth),
      root_(std::move(root)),
      github_(std::move(github)),
      started_(std::chrono::steady_clock::now()) {}

bool Routes::MayBlock(std::string_view method, std::string_view path) {
  constexpr std::string_view kPrefix = "/v1/";
  if (path.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view route = path.substr(kPrefix.size());
  if (method == "POST") return route.substr(0, 6) == "tools/" || route.substr(0, 4) == "cli/";
  return route == "analysis" || route == "queue" || route == "kpis" || route == "reviewers" ||
         route == "corrections" || route.substr(0, 5) == "work/";
}

void Routes::Handle(const HttpRequest& request, const Done& done) const {
  last_request_.store(std::chrono::steady_clock::now().time_since_epoch().count());
  std::optional<HttpResponse> now;
  try {
    now = Route(request, done);
  } catch (const std::exception& e) {
    now = Error(500, fmt::format("internal error: {}", e.what()));
  }
  if (now) done(std::move(*now));
}

std::optional<HttpResponse> Routes::Route(const HttpRequest& request, const Done& done) const {
  static const QueryParams kNoParams;
  const QueryParams& params = request.params != nullptr ? *request.params : kNoParams;
  if (shutting_down_.load()) {
    HttpResponse r = Error(503, "kaizen serve is shutting down; retry when it is back");
    r.close = true;
    return r;
  }
  const std::string_view path = request.path;
  const bool get = request.method == "GET" || request.method == "HEAD";
  const bool post = request.method == "POST";
  if (path == "/healthz") {
    return get ? Healthz() : MethodNotAllowed(request.method, path, "GET");
  }
  // /favicon.ico: browsers ask for it on every page whatever the page links; it is the SVG icon.
  if (path == "/" || path.substr(0, 8) == "/assets/" || path == "/favicon.ico") {
    return get ? WebPage(path) : MethodNotAllowed(request.method, path, "GET");
  }
  constexpr std::string_view kPrefix = "/v1/";
  if (path.substr(0, kPrefix.size()) != kPrefix) {
    return Error(404, fmt::format("no route {}; the API is under /v1/ (GET {}; POST events, "
                                  "tools/<name>, <kind>) and GET /healthz",
                                  path, kGetRoutes));
  }
  const std::string_view route = path.substr(kPrefix.size());
  const bool is_get_route = route == "analysis" || route == "context" || route == "hints" ||
                            route == "rules" || route == "tools" || route == "queue" ||
                            route == "kpis" || route == "reviewers" || route == "corrections" ||
                            (route.substr(0, 5) == "work/" && route.size() > 5);
  if (is_get_route) return get ? Get(route, params) : MethodNotAllowed(request.method, path, "GET");
  if (route == "webhooks/github") {
    // GitHub cannot send the bearer token: the body's signature authenticates it instead.
    return post ? GithubWebhook(request, done) : MethodNotAllowed(request.method, path, "POST");
  }
  const bool is_post_route = route == "events" || route.substr(0, 6) == "tools/" ||
                             route.substr(0, 4) == "cli/" || model::ParseKind(route).has_value();
  if (!is_post_route) {
    return Error(404, fmt::format("no route {}: GET /v1/{{{}}}, POST /v1/events, "
                                  "/v1/tools/<name>, /v1/webhooks/github or /v1/<kind> ({})",
                                  path, kGetRoutes, model::KindList()));
  }
  if (!post) return MethodNotAllowed(request.method, path, "POST");
  const Authenticator::Outcome auth = auth_->Check(request.authorization);
  switch (auth.check) {
    case home::TokenCheck::kMissing: {
      HttpResponse r = Error(401,
                             "writes need `Authorization: Bearer <token>` (KAIZEN_TOKEN, else "
                             "the home's config/token)");
      r.www_authenticate = "Bearer realm=\"kaizen\"";
      return r;
    }
    case home::TokenCheck::kWrong: {
      HttpResponse r = Error(403, "the bearer token is wrong (or revoked)");
      r.www_authenticate = "Bearer realm=\"kaizen\", error=\"invalid_token\"";
      return r;
    }
    case home::TokenCheck::kOk:
      break;
  }
  // Query parameters are not checked on POST, and the body is read as JSON whatever its
  // Content-Type says (curl -d sends application/x-www-form-urlencoded).
  return Post(route, params, request.body, auth.who, done);
}

HttpResponse Routes::Healthz() const {
  const auto uptime =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_)
          .count();
  return Json(200,
              fmt::format(R"({{"status":"ok","events":{},"uptimeSeconds":{},"cliAnswers":{}}})",
                          state_->events(), uptime, cli_answers_.load()));
}

HttpResponse Routes::Get(std::string_view route, const QueryParams& params) const {
  if (route == "context") return Context(params);
  if (route == "hints") return Hints(params);
  if (route == "rules") return Rules(params);
  if (route == "queue") return Queue(params);
  if (route == "kpis") return Kpis(params);
  if (route == "reviewers") return Reviewers(params);
  if (route == "corrections") return Corrections(params);
  if (route.substr(0, 5) == "work/") return Work(route.substr(5), params);
  if (std::vector<ingest::FieldError> errors = CheckParams(params, {}); !errors.empty()) {
    return BadParams(std::move(errors));
  }
  if (route == "tools") return ToolList();
  std::string body;  // analysis
  state_->Read(
      [&](const learn::Learner& learner, int64_t now_ms) { body = learner.AnalysisJson(now_ms); });
  return Json(200, std::move(body));
}

int64_t AsOf::Of(const learn::Learner& learner, int64_t clock_ms) const {
  if (newest) return learner.newest_ms();
  return ms.value_or(clock_ms);
}

HttpResponse Routes::Context(const QueryParams& params, const AsOf& as_of) const {
  ContextRequest request;
  if (std::vector<ingest::FieldError> errors = ParseContextParams(params, &request);
      !errors.empty()) {
    return BadParams(std::move(errors));
  }
  std::string body;
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    const size_t budget = request.budget > 0
                              ? static_cast<size_t>(request.budget)
                              : static_cast<size_t>(learner.config().memory.context_budget_tokens);
    render::ContextResult result =
        render::Context(learner, request.query, as_of.Of(learner, now_ms));
    body = render::RenderContext(
        &result, request.markdown ? render::ContextFormat::kMarkdown : render::ContextFormat::kJson,
        budget);
  });
  return request.markdown ? Markdown(std::move(body)) : Json(200, std::move(body));
}

HttpResponse Routes::Hints(const QueryParams& params, const AsOf& as_of) const {
  bool markdown = false;
  std::vector<ingest::FieldError> errors = CheckParams(params, {"format", "project"});
  if (errors.empty()) errors = ParseFormat(params, &markdown);
  if (!errors.empty()) return BadParams(std::move(errors));
  const std::string* asked = Param(params, "project");
  const std::string project = asked ? *asked : "";
  std::string section;
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    section =
        render::HintsSection(render::HintsInputFrom(learner, as_of.Of(learner, now_ms), project));
  });
  if (markdown) return Markdown(std::move(section));
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "marker");
  base::Str(w, render::kHintsMarkerLine);
  base::Key(w, "section");
  base::Str(w, section);
  w.EndObject();
  return Json(200, b.GetString());
}

HttpResponse Routes::Rules(const QueryParams& params) const {
  if (std::vector<ingest::FieldError> errors = CheckParams(params, {}); !errors.empty()) {
    return BadParams(std::move(errors));
  }
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    w.StartObject();  // the shape of `kaizen rules --json`
    base::Key(w, "rules");
    w.StartArray();
    for (const learn::LearnedRule& r : learner.Rules(now_ms)) learn::WriteJson(w, r);
    w.EndArray();
    base::Key(w, "rejectionPatterns");
    learn::WriteJson(w, learner.RejectionPatterns(true));
    w.EndObject();
  });
  return Json(200, b.GetString());
}

HttpResponse Routes::ToolList() const {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "tools");
  w.StartArray();
  for (const ToolSpec& spec : tools_->Specs()) {
    w.StartObject();
    base::Key(w, "name");
    base::Str(w, spec.name);
    base::Key(w, "route");
    base::Str(w, "POST /v1/tools/" + spec.name);
    base::Key(w, "description");
    base::Str(w, spec.description);
    base::Key(w, "writes");
    w.Bool(spec.writes);
    base::Key(w, "inputSchema");
    w.RawValue(spec.input_schema.data(), spec.input_schema.size(), rapidjson::kObjectType);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return Json(200, b.GetString());
}

std::optional<HttpResponse> Routes::Post(std::string_view route, const QueryParams& params,
                                         std::string_view body, const Principal& who,
                                         const Done& done) const {
  if (route.substr(0, 4) == "cli/") return Cli(route.substr(4), params, body);
  if (route.substr(0, 6) == "tools/") return CallTool(route.substr(6), body, who);
  // The token's role decides what it may write; a reviewer's feedback is made theirs.
  std::string admitted(body);
  const std::optional<model::EventKind> kind =
      route == "events" ? std::nullopt : model::ParseKind(route);
  if (std::string why =
          route == "events" ? AdmitLines(who, &admitted) : Admit(who, kind, &admitted);
      !why.empty()) {
    return Error(403, why, {}, "forbidden");
  }
  if (route == "events") return SubmitMany(std::move(admitted), done);
  return SubmitOne(*kind, admitted, done);
}

namespace {

// The kind of event a tool records from its arguments, if it records one.
std::optional<model::EventKind> KindRecordedBy(std::string_view tool) {
  if (tool.substr(0, 7) == "record_") return model::ParseKind(tool.substr(7));
  if (tool == "resolve_error") return model::EventKind::kError;
  if (tool == "self_check") return model::EventKind::kWork;
  return std::nullopt;
}

}  // namespace

HttpResponse Routes::CallTool(std::string_view name, std::string_view body,
                              const Principal& who) const {
  bool known = false;
  for (const ToolSpec& spec : tools_->Specs()) known = known || spec.name == name;
  if (!known) {
    std::string names;
    for (const ToolSpec& spec : tools_->Specs()) names += (names.empty() ? "" : ", ") + spec.name;
    return Error(404, fmt::format("no tool \"{}\"; the tools are {}", name, names));
  }
  std::string args(
      body.find_first_not_of(" \t\r\n") == std::string_view::npos ? std::string_view("{}") : body);
  if (auto bad = CheckJsonObject(args, "the tool's arguments")) return *bad;
  if (std::optional<model::EventKind> kind = KindRecordedBy(name)) {
    if (std::string why = Admit(who, kind, &args); !why.empty()) {
      return Error(403, why, {}, "forbidden");
    }
  }
  ToolResult result;
  if (Status s = tools_->Call(name, args, &result); !s.ok()) return FromStatus(s);
  if (result.is_error) {
    return Error(422, result.text.substr(0, result.text.find('\n')), result.errors,
                 "invalid_arguments");
  }
  return Json(200, std::move(result.json));
}

std::optional<HttpResponse> Routes::SubmitOne(model::EventKind kind, std::string_view body,
                                              const Done& done) const {
  if (auto bad = CheckJsonObject(body, fmt::format("a {} event", model::KindName(kind)))) {
    return *bad;
  }
  // Submit reads JSONL: a pretty-printed event is made one line first (whitespace outside
  // strings removed, the bytes of every value kept). The line lives until the answer.
  auto line = std::make_shared<std::string>(body.size() + simdjson::SIMDJSON_PADDING, '\0');
  size_t length = 0;
  if (simdjson::minify(body.data(), body.size(), line->data(), length) != simdjson::SUCCESS) {
    return Error(400, "the body is not valid JSON", {}, "bad_json");
  }
  line->resize(length);
  state_->SubmitAsync(*line, kind, [line, kind, done](Status s, SubmitResult submitted) {
    done(Answered([&] {
      LineOutcome out;
      if (s.ok()) s = OneLine(std::move(submitted), &out);
      if (!s.ok()) return FromStatus(s);
      if (!out.stored && !out.skipped) {
        return Error(422,
                     fmt::format("the {} event was refused ({} problem{})", model::KindName(kind),
                                 out.errors.size(), out.errors.size() == 1 ? "" : "s"),
                     out.errors);
      }
      return Json(out.stored ? 201 : 200, StoredEventJson(kind, out));
    }));
  });
  return std::nullopt;
}

std::optional<HttpResponse> Routes::SubmitMany(std::string body, const Done& done) const {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Error(400, "the body holds no events: send JSONL, one event per line", {}, "no_events");
  }
  // SubmitAsync reads the text on the writer thread, after this returns: it lives until the
  // answer.
  auto text = std::make_shared<const std::string>(std::move(body));
  state_->SubmitAsync(*text, std::nullopt, [text, done](Status s, SubmitResult submitted) {
    done(Answered([&] { return s.ok() ? LinesAnswer(submitted) : FromStatus(s); }));
  });
  return std::nullopt;
}

}  // namespace kaizen::serve
