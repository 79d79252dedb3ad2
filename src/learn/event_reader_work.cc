// The decoder of `work` events and of the work-product references feedback carries, which
// resolve against the products `work` events registered.
#include <algorithm>
#include <optional>
#include <string_view>

#include "learn/event_reader_internal.h"

namespace kaizen::learn::internal {
namespace {

// A WorkProductRef: full, or {"id"[, "version"]} to resolve through the registry.
bool ReadWorkProduct(od::value v, model::WorkView* w) {
  return ForFields(v, [&](std::string_view k, od::value x) {
    if (k == "id") {
      w->artifact_id = Str(x);
    } else if (k == "version") {
      w->version = Str(x);
    } else if (k == "type") {
      w->type = Str(x);
    } else if (k == "summary") {
      w->summary = Str(x);
    } else if (k == "path") {
      w->path = Str(x);
    } else if (k == "commit") {
      w->commit = Str(x);
    } else if (k == "diff") {
      w->diff = Str(x);
    } else if (k == "bubaConfidence") {
      w->confidence = Dbl(x).value_or(0);
    } else if (k == "bubaScorePrediction") {
      w->score_prediction = Dbl(x);
    } else if (k == "generationContext") {
      return ForFields(x, [&](std::string_view gk, od::value gx) {
        if (gk == "modelUsed") {
          w->model = Str(gx);
        } else if (gk == "iterationCount") {
          w->iteration_count = IntOr0(gx);
        }
        return true;
      });
    }
    return true;
  });
}

}  // namespace

// Reads a reference: an inline full ref (it has a `type`) stands for itself; {"id"[, "version"]}
// is resolved later, in log order. Returns false on malformed JSON.
bool ReadRef(od::value v, model::WorkView* w, bool* known) {
  *w = model::WorkView();
  if (!ReadWorkProduct(v, w)) return false;
  *known = !w->type.empty();
  return true;
}

// Fills an unresolved reference from the registry, keeping nothing of the reference but its
// identity when the product is unknown.
bool Resolve(const WorkRegistry& registry, model::WorkView* w) {
  if (!w->type.empty()) return true;
  std::optional<model::WorkView> found = registry.Find(w->artifact_id, w->version);
  if (!found) return false;
  *w = *found;
  return true;
}

bool WorkField(std::string_view k, od::value x, model::WorkView* w) {
  if (k == "id") {
    w->event_id = Str(x);
  } else if (k == "workProduct") {
    return ReadWorkProduct(x, w);
  } else if (k == "mcpServerType") {
    w->server_type = Str(x);
  } else if (k == "pipelineStage") {
    w->stage = Str(x);
  } else if (k == "sessionId") {
    w->session_id = Str(x);
  } else if (k == "experimental") {
    w->experimental = Bool(x).value_or(false);
  } else if (k == "priority") {
    w->priority = Str(x);
  } else if (k == "forReview") {
    w->for_review = Bool(x).value_or(true);
  } else if (k == "requiredReviews") {
    w->required_reviews = std::max<int64_t>(1, IntOr0(x));
  } else if (k == "repository") {
    w->project = Str(x);
  } else if (k == "compareWith") {
    w->compare_with = Str(x);
  }
  return true;
}

}  // namespace kaizen::learn::internal
