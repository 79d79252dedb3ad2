#include "ingest/validate.h"

#include <absl/container/inlined_vector.h>
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "ingest/reward_normalize.h"
#include "ingest/validate_walk.h"
#include "model/json_access.h"
#include "model/schema.h"

namespace kaizen::ingest {
namespace {

using detail::ListUnlisted;
using detail::Path;
using detail::Show;
using detail::Validator;
using model::EventKind;
using simdjson::dom::element;
using simdjson::dom::object;

// A field that is there and not null (null means "not given").
bool Present(object o, std::string_view key) {
  element e;
  return o.at_key(key).get(e) == simdjson::SUCCESS && !e.is_null();
}

using model::StringAt;

void KindRules(EventKind kind, object event, Validator& v, EventFacts* facts) {
  switch (kind) {
    case EventKind::kFeedback: {
      facts->session_id = StringAt(event, "sessionId");
      facts->modal_id = StringAt(event, "modalId");
      object wp;
      if (event.at_key("workProduct").get_object().get(wp) == simdjson::SUCCESS) {
        double p;
        if (wp.at_key("bubaScorePrediction").get_double().get(p) == simdjson::SUCCESS)
          facts->prediction = p;
        facts->has_work_product_inline = Present(wp, "summary");
        facts->artifact_id = StringAt(wp, "id");
        facts->artifact_version = StringAt(wp, "version");
      }
      // How long the reviewer took is required, unless the client says it could not measure it
      // (kaizen review with decision flags): then it is absent, never invented.
      object meta;
      if (event.at_key("meta").get_object().get(meta) == simdjson::SUCCESS &&
          !Present(meta, "timeToDecisionMs")) {
        bool unmeasured = false;
        simdjson::dom::array list;
        if (meta.at_key("unmeasured").get_array().get(list) == simdjson::SUCCESS) {
          for (element x : list) {
            std::string_view name;
            if (x.get_string().get(name) == simdjson::SUCCESS && name == "timeToDecisionMs")
              unmeasured = true;
          }
        }
        if (!unmeasured)
          v.Error("meta.timeToDecisionMs",
                  "missing (required unless meta.unmeasured lists it: a client that could not "
                  "measure it)");
      }
      simdjson::dom::array scores;
      if (event.at_key("scores").get_array().get(scores) == simdjson::SUCCESS) {
        double sum = 0;
        size_t n = 0, i = 0;
        absl::InlinedVector<std::string_view, 16> seen;  // 13 dimensions: no allocation
        for (element s : scores) {
          object so;
          if (s.get_object().get(so) != simdjson::SUCCESS) continue;
          double score;
          if (so.at_key("score").get_double().get(score) == simdjson::SUCCESS) {
            sum += score;
            ++n;
          }
          std::string_view dim = StringAt(so, "dimension");
          if (!dim.empty() && std::find(seen.begin(), seen.end(), dim) != seen.end()) {
            v.Error(fmt::format("scores[{}].dimension", i),
                    fmt::format("\"{}\" is scored twice in one review", dim));
          }
          seen.push_back(dim);
          ++i;
        }
        if (n) facts->mean_score = sum / n;
      }
      simdjson::dom::array annotations;
      if (event.at_key("annotations").get_array().get(annotations) == simdjson::SUCCESS) {
        size_t i = 0;
        for (element a : annotations) {
          double start, end;  // integers, possibly written as 12.0
          if (a["target"]["lineStart"].get_double().get(start) == simdjson::SUCCESS &&
              a["target"]["lineEnd"].get_double().get(end) == simdjson::SUCCESS && end < start) {
            v.Error(fmt::format("annotations[{}].target.lineEnd", i),
                    fmt::format("{} is before lineStart {}", end, start));
          }
          ++i;
        }
      }
      return;
    }
    case EventKind::kWork: {
      object wp;
      if (event.at_key("workProduct").get_object().get(wp) == simdjson::SUCCESS) {
        facts->artifact_id = StringAt(wp, "id");
        facts->artifact_version = StringAt(wp, "version");
        double p;
        if (wp.at_key("bubaScorePrediction").get_double().get(p) == simdjson::SUCCESS)
          facts->prediction = p;
      }
      // A work event registers an artifact; a bare reference registers nothing.
      for (auto it = facts->references.begin(); it != facts->references.end();) {
        v.Error(it->path, "a work event must carry the full WorkProductRef, not a reference");
        it = facts->references.erase(it);
      }
      return;
    }
    case EventKind::kError: {
      std::string_view resolves = StringAt(event, "resolves");
      if (!resolves.empty()) {
        facts->resolves = model::ParseUuid(resolves);
      } else {
        if (!Present(event, "error_type"))
          v.Error("error_type", "missing (required unless the event resolves an earlier error)");
        if (!Present(event, "message"))
          v.Error("message", "missing (required unless the event resolves an earlier error)");
      }
      return;
    }
    case EventKind::kReward: {
      if (Present(event, "signal_value")) return;
      std::string_view type = StringAt(event, "signal_type");
      element raw;
      if (event.at_key("raw_value").get(raw) != simdjson::SUCCESS || raw.is_null()) {
        v.Error("signal_value",
                "missing (give signal_value in 0..1, or raw_value with a known signal_type)");
        return;
      }
      if (!HasNormalization(type)) {
        v.Error("signal_type",
                fmt::format("\"{}\" has no normalization rule, so signal_value in 0..1 is required",
                            type));
        return;
      }
      std::optional<double> baseline;
      double b;
      if (event.at_key("baseline_seconds").get_double().get(b) == simdjson::SUCCESS) baseline = b;
      auto n = NormalizeReward(type, raw, baseline);
      if (!n.ok()) {
        v.Error("raw_value", fmt::format("{} {}", Show(raw), n.status().message()));
      } else {
        facts->normalized_signal = *n;
      }
      return;
    }
    case EventKind::kCorrection: {
      std::string_view original = StringAt(event, "original");
      std::string_view corrected = StringAt(event, "corrected");
      if (Present(event, "original") && original == corrected) {
        v.Error("corrected", "is identical to original (a correction must change something)");
      }
      return;
    }
    case EventKind::kAdmin: {
      std::string_view action = StringAt(event, "action");
      auto need = [&](std::string_view field) {
        if (!Present(event, field))
          v.Error(std::string(field), fmt::format("missing (required for action {})", action));
      };
      if (action == "rule_audit") {
        need("rule_id");
        need("verdict");
      } else if (action == "consent") {
        need("user_id");
        need("learning_mode");
      } else if (action == "deletion_request") {
        if (!Present(event, "user_id") && !Present(event, "session_id")) {
          v.Error("user_id", "missing (deletion_request needs user_id or session_id)");
        }
      } else if (action == "dismiss") {
        need("work_id");
      } else if (action == "submit") {
        need("work_id");
        need("work_version");
      } else if (action == "reserve" || action == "release") {
        need("work_id");
        need("reviewerId");
      } else if (action == "ask") {
        need("question_id");
        need("question");
      } else if (action == "answer") {
        need("question_id");
        need("note");
      }
      return;
    }
    case EventKind::kOutcome:
    case EventKind::kLoop:
    case EventKind::kPrompt:
      return;
  }
}

}  // namespace

std::vector<FieldError> ValidateEvent(element event, const ValidateOptions& options,
                                      EventFacts* facts) {
  Validator v(options, facts);
  object obj;
  if (event.get_object().get(obj) != simdjson::SUCCESS) {
    v.Error("", fmt::format("{} is not a JSON object (each event is one object)", Show(event)));
    return std::move(v.errors);
  }
  std::string_view kind_name;
  element kind_value;
  std::optional<model::EventKind> kind;
  if (obj.at_key("kind").get(kind_value) != simdjson::SUCCESS) {
    if (!options.expected_kind) {
      v.Error("kind", fmt::format("missing (required: one of {})", model::KindList()));
      return std::move(v.errors);
    }
    kind = options.expected_kind;
    v.kind_given = false;
  } else {
    if (kind_value.get_string().get(kind_name) != simdjson::SUCCESS) {
      v.Error("kind",
              fmt::format("{} is not a string (one of {})", Show(kind_value), model::KindList()));
      return std::move(v.errors);
    }
    kind = model::ParseKind(kind_name);
    if (!kind) {
      v.Error("kind", fmt::format("{} is not one of {}", Show(kind_value), model::KindList()));
      return std::move(v.errors);
    }
    if (options.expected_kind && *kind != *options.expected_kind) {
      v.Error("kind", fmt::format("{} does not match the kind being recorded ({})",
                                  Show(kind_value), model::KindName(*options.expected_kind)));
      return std::move(v.errors);
    }
  }
  facts->kind = *kind;
  v.Object(event, model::SchemaFor(*kind), Path());  // sets facts->id and ->timestamp
  if (v.errors.empty()) KindRules(*kind, obj, v, facts);
  ListUnlisted(v, "(event)");
  return std::move(v.errors);
}

}  // namespace kaizen::ingest
