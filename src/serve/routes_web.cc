// The routes behind the web app (issue 6): the pages themselves, the review queue, a work
// product's file and diff, the dashboard's weekly KPIs, reviewers and correction patterns.
#include <time.h>

#include <fmt/format.h>

#include "base/json_writer.h"
#include "home/clock.h"
#include "home/work_artifact.h"
#include "ingest/enrich.h"
#include "learn/queue_answer.h"
#include "model/timestamp.h"
#include "render/correction_patterns.h"
#include "serve/responses.h"
#include "serve/routes.h"
#include "serve/web_assets.h"

namespace kaizen::serve {
namespace {

// UTC offsets in use run from -12:00 to +14:00.
constexpr int64_t kMinUtcOffset = -12 * 60, kMaxUtcOffset = 14 * 60;

// The reviewer's hour decides their review window: on the reviewer's clock when the page sent
// its UTC offset (a browser anywhere), else on the server's local time (the reviewer at the
// machine `kaizen serve` runs on: loopback by default).
std::string_view WindowAt(int64_t now_ms, std::optional<int64_t> utc_offset_minutes) {
  if (utc_offset_minutes) {
    return ingest::TimeOfDay(model::ToCivil(now_ms + *utc_offset_minutes * 60000).hour);
  }
  return home::LocalTimeOfDay(now_ms);
}

}  // namespace

HttpResponse Routes::WebPage(std::string_view path) const {
  const std::string_view name = path == "/"              ? std::string_view("index.html")
                                : path == "/favicon.ico" ? std::string_view("favicon.svg")
                                                         : path.substr(8);
  const WebAsset* asset = FindWebAsset(name);
  if (asset == nullptr) return Error(404, fmt::format("no web asset {}", path));
  HttpResponse r;
  r.body = std::string(asset->data);
  r.content_type = std::string(WebContentType(name));
  r.web = true;
  return r;
}

HttpResponse Routes::Queue(const QueryParams& params) const {
  std::vector<ingest::FieldError> errors = CheckParams(params, {"reviewer", "utcOffset"});
  // utcOffset: the reviewer's offset from UTC in minutes, east positive (UTC-5 is -300): the
  // opposite sign of JavaScript's Date#getTimezoneOffset.
  std::optional<int64_t> utc_offset;
  if (errors.empty() && Param(params, "utcOffset") != nullptr) {
    int64_t minutes = 0;
    if (auto e = ParseIntParam(params, "utcOffset", kMinUtcOffset, kMaxUtcOffset, &minutes)) {
      e->message += " (minutes east of UTC, e.g. -300 for UTC-5)";
      errors.push_back(*e);
    } else {
      utc_offset = minutes;
    }
  }
  if (!errors.empty()) return BadParams(errors);
  const std::string* reviewer = Param(params, "reviewer");
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    const learn::QueueAnswer answer =
        learn::AnswerQueue(learner, reviewer != nullptr ? std::string_view(*reviewer) : "",
                           WindowAt(now_ms, utc_offset), now_ms);
    learn::WriteJson(w, learner, answer, utc_offset);
  });
  return Json(200, b.GetString());
}

HttpResponse Routes::Work(std::string_view artifact_id, const QueryParams& params) const {
  if (auto errors = CheckParams(params, {"version"}); !errors.empty()) return BadParams(errors);
  const std::string* version = Param(params, "version");
  // A copy of the pending item: its views are the Learner's, valid only inside Read.
  struct Pending {
    std::string version, type, summary;
    home::WorkVersion work;
  };
  std::optional<Pending> item;
  bool known = false;
  std::string summary, type, found_version;
  state_->Read([&](const learn::Learner& learner, int64_t) {
    const auto& pending = learner.queue().pending();
    const learn::QueueItem* chosen = nullptr;
    for (auto it = pending.lower_bound({artifact_id, {}});
         it != pending.end() && it->first.first == artifact_id; ++it) {
      // Without a version: the newest recorded one still pending.
      if (version == nullptr) {
        if (chosen == nullptr || it->second.at_ms >= chosen->at_ms) chosen = &it->second;
      } else if (it->second.version == *version) {
        chosen = &it->second;
      }
    }
    if (chosen != nullptr) {
      const std::optional<model::WorkView> newest = learner.work_registry().Find(artifact_id, {});
      item = Pending{std::string(chosen->version), std::string(chosen->type),
                     std::string(chosen->summary),
                     home::WorkVersion{std::string(chosen->path), std::string(chosen->version),
                                       std::string(chosen->commit), std::string(chosen->diff),
                                       !newest || newest->version == chosen->version}};
    }
    // A product no longer pending (an older version for an A/B comparison): what the registry
    // keeps of it, without its path.
    if (const std::optional<model::WorkView> w = learner.work_registry().Find(
            artifact_id, version != nullptr ? std::string_view(*version) : std::string_view())) {
      known = true;
      summary = w->summary;
      type = w->type;
      found_version = w->version;
    }
  });
  if (!known && !item) {
    return Error(404, fmt::format("no recorded work product {}{}", artifact_id,
                                  version != nullptr ? " version " + *version : std::string()));
  }
  home::WorkArtifact artifact;
  if (item) {
    artifact = ReadWorkArtifact(root_, item->work);
  } else {
    artifact.unavailable = "this version is no longer pending review: only its summary is kept";
  }
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "workProduct");
  w.StartObject();
  base::Key(w, "id");
  base::Str(w, artifact_id);
  base::Key(w, "version");
  base::Str(w, item ? item->version : found_version);
  base::Key(w, "type");
  base::Str(w, item ? item->type : type);
  if (item && !item->work.path.empty()) {
    base::Key(w, "path");
    base::Str(w, item->work.path);
  }
  if (item && !item->work.commit.empty()) {
    base::Key(w, "commit");
    base::Str(w, item->work.commit);
  }
  base::Key(w, "summary");
  base::Str(w, item ? item->summary : summary);
  w.EndObject();
  base::Key(w, "file");
  if (artifact.file_path) {
    w.StartObject();
    base::Key(w, "path");
    base::Str(w, item->work.path);
    base::Key(w, "text");
    base::Str(w, artifact.file_text);
    base::Key(w, "truncated");
    w.Bool(artifact.truncated);
    w.EndObject();
  } else {
    w.Null();
  }
  base::Key(w, "diff");
  if (artifact.diff) {
    w.StartObject();
    base::Key(w, "text");
    base::Str(w, *artifact.diff);
    base::Key(w, "source");
    base::Str(w, artifact.diff_source);
    w.EndObject();
  } else {
    w.Null();
  }
  base::Key(w, "unavailable");
  if (artifact.unavailable.empty()) {
    w.Null();
  } else {
    base::Str(w, artifact.unavailable);
  }
  w.EndObject();
  return Json(200, b.GetString());
}

HttpResponse Routes::Kpis(const QueryParams& params) const {
  std::vector<ingest::FieldError> errors =
      CheckParams(params, {"windowDays", "windows", "stepDays"});
  int64_t window_days = 7, windows = 13;  // three months of weekly points
  std::optional<int64_t> step_days;       // default: consecutive windows
  if (errors.empty()) {
    if (auto e = ParseIntParam(params, "windowDays", 1, 366, &window_days)) errors.push_back(*e);
    if (auto e = ParseIntParam(params, "windows", 1, 104, &windows)) errors.push_back(*e);
    int64_t step = 0;
    if (Param(params, "stepDays") != nullptr) {
      if (auto e = ParseIntParam(params, "stepDays", 1, 366, &step)) {
        errors.push_back(*e);
      } else {
        step_days = step;
      }
    }
  }
  if (!errors.empty()) return BadParams(errors);
  std::string body;
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    body = learner.KpisJson(now_ms, window_days, static_cast<int>(windows),
                            step_days.value_or(window_days));
  });
  return Json(200, std::move(body));
}

HttpResponse Routes::Corrections(const QueryParams& params) const {
  if (auto errors = CheckParams(params, {}); !errors.empty()) return BadParams(errors);
  std::string body;
  state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
    body = render::CorrectionsJson(learner.corrections(), now_ms);
  });
  return Json(200, std::move(body));
}

HttpResponse Routes::Reviewers(const QueryParams& params) const {
  if (auto errors = CheckParams(params, {}); !errors.empty()) return BadParams(errors);
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  state_->Read([&](const learn::Learner& learner, int64_t) {
    w.StartObject();
    base::Key(w, "reviewers");
    w.StartArray();
    for (const learn::ReviewerProfile& p : learner.profiles().Result()) learn::WriteJson(w, p);
    w.EndArray();
    w.EndObject();
  });
  return Json(200, b.GetString());
}

}  // namespace kaizen::serve
