// POST /v1/webhooks/github: a GitHub webhook delivery, mapped by signals/github_events and stored
// through LiveState's group commit like every other write.
//
//   503  no secret configured (the message says how to configure one)
//   401  X-Hub-Signature-256 missing or not the body's HMAC under the secret; nothing is read
//   400  X-GitHub-Event missing
//   422  the payload is not JSON or not a shape GitHub documents (the field and the rule), or the
//        log refused an event; nothing of the delivery is stored in the first case
//   202  an event or action kaizen does not map, or a person's pull request: `ignored` says why
//   200  ping; or every event was already recorded (`duplicate: true`: a redelivery)
//   201  events stored
//
// No secret is a 503, not a 401: the sender did nothing wrong; this server is not set up for the
// route, and GitHub's delivery log shows the status and message to whoever configures it.
#include <fmt/format.h>

#include <exception>
#include <memory>

#include "base/json_writer.h"
#include "serve/field_errors_json.h"
#include "serve/github_webhook.h"
#include "serve/responses.h"
#include "serve/routes.h"
#include "signals/github_events.h"

namespace kaizen::serve {
namespace {

// A line the log refused only because it holds it already: the same id, the same review (modal
// and session) or the same work version. A redelivery is made only of such lines.
bool AlreadyRecorded(const LineOutcome& line) {
  if (line.stored || line.skipped || line.errors.empty()) return false;
  for (const ingest::FieldError& e : line.errors) {
    if (e.message.find("already recorded") == std::string::npos &&
        e.message.find("already answered") == std::string::npos) {
      return false;
    }
  }
  return true;
}

void WriteIgnored(base::JsonWriter& w, const std::vector<std::string>& ignored) {
  base::Key(w, "ignored");
  w.StartArray();
  for (const std::string& why : ignored) base::Str(w, why);
  w.EndArray();
}

HttpResponse Answer(std::string_view event, std::string_view delivery,
                    const signals::GithubMapping& mapped, const SubmitResult& submitted) {
  std::vector<ingest::FieldError> refused;
  uint64_t stored = 0, duplicates = 0;
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "event");
  base::Str(w, event);
  base::Key(w, "delivery");
  base::Str(w, delivery);
  base::Key(w, "events");
  w.StartArray();
  for (size_t i = 0; i < submitted.lines.size() && i < mapped.events.size(); ++i) {
    const LineOutcome& line = submitted.lines[i];
    const signals::GithubEvent& ev = mapped.events[i];
    const bool duplicate = AlreadyRecorded(line);
    w.StartObject();
    base::Key(w, "id");
    base::Str(w, ev.id);
    base::Key(w, "kind");
    base::Str(w, model::KindName(ev.kind));
    base::Key(w, "what");
    base::Str(w, ev.label);
    base::Key(w, "status");
    base::Str(w, line.stored    ? "stored"
                 : duplicate    ? "duplicate"
                 : line.skipped ? "skipped"
                                : "refused");
    if (line.skipped) {
      base::Key(w, "reason");
      base::Str(w, line.skip_reason);
    } else if (!line.stored && !duplicate) {
      base::Key(w, "errors");
      WriteFieldErrors(w, line.errors);
      for (const ingest::FieldError& e : line.errors) {
        refused.push_back({fmt::format("{} {}", ev.label, e.path), e.message});
      }
    }
    w.EndObject();
    stored += line.stored ? 1 : 0;
    duplicates += duplicate ? 1 : 0;
  }
  w.EndArray();
  base::Key(w, "stored");
  w.Uint64(stored);
  base::Key(w, "duplicate");
  w.Bool(stored == 0 && duplicates > 0 && refused.empty());
  WriteIgnored(w, mapped.ignored);
  if (!refused.empty()) {
    base::Key(w, "error");
    w.StartObject();
    base::Key(w, "code");
    base::Str(w, "invalid_event");
    base::Key(w, "message");
    base::Str(w, fmt::format("{} event(s) of this delivery were refused", refused.size()));
    base::Key(w, "errors");
    WriteFieldErrors(w, refused);
    w.EndObject();
  }
  w.EndObject();
  return Json(!refused.empty() ? 422 : stored > 0 ? 201 : 200, b.GetString());
}

}  // namespace

std::optional<HttpResponse> Routes::GithubWebhook(const HttpRequest& request,
                                                  const Done& done) const {
  if (!github_ || !github_->secret) {
    return Error(503,
                 fmt::format("no GitHub webhook secret is configured: set KAIZEN_GITHUB_SECRET, or "
                             "write the secret given to GitHub into <home>/{} (mode 0600), and "
                             "restart kaizen serve",
                             kGithubSecretFile),
                 {}, "github_not_configured");
  }
  if (request.github_signature.empty()) {
    HttpResponse r = Error(401,
                           "X-Hub-Signature-256 is missing: give the GitHub webhook the same "
                           "secret as kaizen (KAIZEN_GITHUB_SECRET or config/github-secret)",
                           {{"X-Hub-Signature-256", "missing"}}, "bad_signature");
    return r;
  }
  if (!GithubSignatureValid(request.body, request.github_signature, *github_->secret)) {
    return Error(401,
                 "X-Hub-Signature-256 is not the body's HMAC-SHA256 under kaizen's secret: the "
                 "webhook's secret differs from KAIZEN_GITHUB_SECRET / config/github-secret, or "
                 "the body was changed on the way",
                 {{"X-Hub-Signature-256", "does not match the body"}}, "bad_signature");
  }
  if (request.github_event.empty()) {
    return Error(400, "X-GitHub-Event is missing: GitHub names the event in it",
                 {{"X-GitHub-Event", "missing"}});
  }
  const std::string event(request.github_event);
  auto mapped = signals::MapGithubPayload(
      request.body, signals::GithubSource{event, {}, std::nullopt}, github_->agents);
  if (!mapped.ok()) {
    const std::string& m = mapped.status().message();
    const size_t colon = m.find(": ");
    const std::string path = colon == std::string::npos ? "(payload)" : m.substr(0, colon);
    return Error(422, fmt::format("the {} payload is not one kaizen reads: {}", event, m),
                 {{path, colon == std::string::npos ? m : m.substr(colon + 2)}}, "invalid_payload");
  }
  const std::string delivery(request.github_delivery);
  if (mapped->events.empty()) {
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "event");
    base::Str(w, event);
    base::Key(w, "delivery");
    base::Str(w, delivery);
    base::Key(w, "stored");
    w.Uint64(0);
    WriteIgnored(w, mapped->ignored);
    w.EndObject();
    return Json(event == signals::kGithubPing ? 200 : 202, b.GetString());
  }
  auto owned = std::make_shared<signals::GithubMapping>(std::move(*mapped));
  auto lines = std::make_shared<std::string>();
  for (const signals::GithubEvent& e : owned->events) *lines += e.json + "\n";
  state_->SubmitAsync(*lines, std::nullopt,
                      [owned, lines, event, delivery, done](Status s, SubmitResult submitted) {
                        if (!s.ok()) return done(Error(HttpStatusFor(s), s.message()));
                        // Built on the writer thread, where an exception must not escape.
                        HttpResponse answer;
                        try {
                          answer = Answer(event, delivery, *owned, submitted);
                        } catch (const std::exception& e) {
                          answer = Error(500, fmt::format("internal error: {}", e.what()));
                        }
                        done(std::move(answer));
                      });
  return std::nullopt;
}

}  // namespace kaizen::serve
