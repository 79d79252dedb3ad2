// The decoder of `feedback` events, the one kind with nested parts and fields a reader may skip
// (ReviewFields): the largest decoder, in a file of its own.
#include <optional>
#include <string>
#include <string_view>

#include "learn/event_reader_internal.h"
#include "learn/reviews/quality_index.h"

namespace kaizen::learn::internal {
namespace {

model::Decision ParseDecision(std::string_view d) {
  if (d == "approved") return model::Decision::kApproved;
  if (d == "rejected") return model::Decision::kRejected;
  if (d == "needs-work") return model::Decision::kNeedsWork;
  if (d == "deferred") return model::Decision::kDeferred;
  return model::Decision::kNone;
}

model::Severity ParseSeverity(std::string_view s) {
  if (s == "minor") return model::Severity::kMinor;
  if (s == "moderate") return model::Severity::kModerate;
  if (s == "major") return model::Severity::kMajor;
  if (s == "critical") return model::Severity::kCritical;
  return model::Severity::kNone;
}

model::ConfidenceLevel ParseConfidence(std::string_view s) {
  if (s == "very-unsure") return model::ConfidenceLevel::kVeryUnsure;
  if (s == "somewhat-unsure") return model::ConfidenceLevel::kSomewhatUnsure;
  if (s == "fairly-sure") return model::ConfidenceLevel::kFairlySure;
  if (s == "very-sure") return model::ConfidenceLevel::kVerySure;
  return model::ConfidenceLevel::kNone;
}

}  // namespace

void ResetReview(model::ReviewView* r) {
  // Keep the vectors' capacity: one ReviewView is reused for every feedback event.
  r->id = r->session_id = r->modal_id = r->reviewer = r->stage = r->server_type = r->task_type =
      r->project = {};
  r->work = model::WorkView();
  r->work_known = false;
  r->decision = model::Decision::kNone;
  r->severity = model::Severity::kNone;
  r->reason = {};
  r->blockers.clear();
  r->suggestions.clear();
  r->scores.clear();
  r->has_free_text = false;
  r->themes.clear();
  r->sentiment.reset();
  r->free_text_chars = 0;
  r->liked = r->disliked = {};
  r->comparison.reset();
  r->annotations.clear();
  r->sections.clear();
  r->confidence = model::ConfidenceLevel::kNone;
  r->would_delegate = r->needs_expert = false;
  r->override_weight = model::Override::kNone;
  r->time_to_decision_ms = 0;
  r->decision_untimed = false;
  r->time_to_first_interaction_ms.reset();
  r->fields_modified = 0;
  r->scroll_depth.reset();
  r->revisits = 0;
  r->device = r->time_of_day = r->day_of_week = r->presentation_format = {};
  r->concurrent_modals = 0;
  r->session_fatigue = 0;
  r->prediction_delta.reset();
}

namespace {

bool ReadComparison(od::value v, model::ComparisonView* c) {
  bool known = false;
  return ForFields(v, [&](std::string_view k, od::value x) {
    if (k == "optionA") return ReadRef(x, &c->option_a, &known);
    if (k == "optionB") return ReadRef(x, &c->option_b, &known);
    if (k == "preferred") {
      c->preferred = Str(x);
    } else if (k == "preferenceStrength") {
      c->strength = Str(x);
    } else if (k == "dimensions") {
      return ForElements(x, [&](od::value e) {
        model::DimensionWinnerView d;
        bool ok = ForFields(e, [&](std::string_view dk, od::value dx) {
          if (dk == "dimension") {
            d.dimension = Str(dx);
          } else if (dk == "winner") {
            std::string_view w = Str(dx);
            d.winner = w == "A" ? 'A' : w == "B" ? 'B' : 'T';
          }
          return true;
        });
        c->dimensions.push_back(d);
        return ok;
      });
    }
    return true;
  });
}

bool ReadMeta(od::value v, model::ReviewView* r) {
  return ForFields(v, [&](std::string_view k, od::value x) {
    if (k == "timeToDecisionMs") {
      r->time_to_decision_ms = Dbl(x).value_or(0);
    } else if (k == "unmeasured") {
      ForElements(x, [&](od::value e) {
        if (Str(e) == "timeToDecisionMs") r->decision_untimed = true;
        return true;
      });
    } else if (k == "timeToFirstInteractionMs") {
      r->time_to_first_interaction_ms = Dbl(x);
    } else if (k == "fieldsModified") {
      r->fields_modified = CountElements(x);
    } else if (k == "scrollDepth") {
      r->scroll_depth = Dbl(x);
    } else if (k == "revisits") {
      r->revisits = IntOr0(x);
    } else if (k == "deviceType") {
      r->device = Str(x);
    } else if (k == "timeOfDay") {
      r->time_of_day = Str(x);
    } else if (k == "dayOfWeek") {
      r->day_of_week = Str(x);
    } else if (k == "presentationFormat") {
      r->presentation_format = Str(x);
    } else if (k == "concurrentModals") {
      r->concurrent_modals = IntOr0(x);
    } else if (k == "sessionFatigue") {
      r->session_fatigue = IntOr0(x);
    } else if (k == "sections") {
      return ForElements(x, [&](od::value e) {
        model::SectionView s;
        bool ok = ForFields(e, [&](std::string_view sk, od::value sx) {
          if (sk == "name") {
            s.name = Str(sx);
          } else if (sk == "visibleMs") {
            s.visible_ms = Dbl(sx).value_or(0);
          } else if (sk == "expanded") {
            s.expanded = Bool(sx).value_or(false);
          }
          return true;
        });
        r->sections.push_back(s);
        return ok;
      });
    }
    return true;
  });
}

// N when `meta`, an object's text, ends with `"sessionFatigue":N}` after a `{` or `,` (N a JSON
// integer of at most 18 digits, so it fits an int64_t): how ingest writes it, last.
std::optional<int64_t> TrailingFatigue(std::string_view meta) {
  constexpr std::string_view kKey = "\"sessionFatigue\":";
  if (meta.empty() || meta.back() != '}') return std::nullopt;
  const size_t end = meta.size() - 1;
  size_t begin = end;
  while (begin > 0 && meta[begin - 1] >= '0' && meta[begin - 1] <= '9') --begin;
  const size_t digits = end - begin;
  if (digits == 0 || digits > 18 || (digits > 1 && meta[begin] == '0')) return std::nullopt;
  if (begin < kKey.size() + 1 || meta.substr(begin - kKey.size(), kKey.size()) != kKey) {
    return std::nullopt;
  }
  const char before = meta[begin - kKey.size() - 1];
  if (before != '{' && before != ',') return std::nullopt;
  int64_t n = 0;
  for (size_t i = begin; i < end; ++i) n = n * 10 + (meta[i] - '0');
  return n;
}

// `meta.sessionFatigue` alone, for rules that weigh reviews by fatigue but read no other meta.
// Read from the end of the object's text when ingest wrote it there: walking meta's dozen
// fields to reach it was about a tenth of `kaizen analyze --only gates`. A meta written some
// other way is parsed again on its own and walked.
bool ReadFatigue(od::value v, const ReviewReading& how, model::ReviewView* r) {
  od::object o;
  std::string_view raw;
  if (v.get_object().get(o) != SUCCESS || o.raw_json().get(raw) != SUCCESS) return false;
  if (std::optional<int64_t> n = TrailingFatigue(raw)) {
    r->session_fatigue = *n;
    return true;
  }
  std::string& padded = *how.meta_padded;
  padded.assign(raw);
  padded.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  od::value meta;
  if (how.meta_parser->iterate(padded.data(), raw.size(), padded.size()).get(doc) != SUCCESS ||
      doc.get_value().get(meta) != SUCCESS) {
    return false;
  }
  return ForFields(meta, [&](std::string_view k, od::value x) {
    if (k == "sessionFatigue") r->session_fatigue = IntOr0(x);
    return true;
  });
}

}  // namespace

bool ReadReviewField(std::string_view k, od::value x, const ReviewReading& how,
                     model::ReviewView* r) {
  if (k == "id") {
    r->id = Str(x);
  } else if (k == "sessionId") {
    r->session_id = Str(x);
  } else if (k == "modalId") {
    r->modal_id = Str(x);
  } else if (k == "reviewerId") {
    r->reviewer = Str(x);
  } else if (k == "pipelineStage") {
    r->stage = Str(x);
  } else if (k == "mcpServerType") {
    r->server_type = Str(x);
  } else if (k == "repository") {
    r->project = Str(x);
  } else if (k == "workProduct") {
    return ReadRef(x, &r->work, &r->work_known);
  } else if (k == "decision") {
    return ForFields(x, [&](std::string_view dk, od::value dx) {
      if (dk == "decision") {
        r->decision = ParseDecision(Str(dx));
      } else if (dk == "severity") {
        r->severity = ParseSeverity(Str(dx));
      } else if (dk == "reason") {
        r->reason = Str(dx);
      } else if (dk == "blockers") {
        return Strings(dx, &r->blockers);
      } else if (dk == "suggestions") {
        return Strings(dx, &r->suggestions);
      }
      return true;
    });
  } else if (k == "scores") {
    if (!how.fields.Has(ReviewField::kScores)) return true;
    return ForElements(x, [&](od::value e) {
      model::ScoreView s;
      bool has_score = false;
      bool ok = ForFields(e, [&](std::string_view sk, od::value sx) {
        if (sk == "dimension") {
          s.dimension = Str(sx);
        } else if (sk == "score") {
          std::optional<double> d = Dbl(sx);
          has_score = d.has_value();
          s.score = d.value_or(0);
        }
        return true;
      });
      if (ok && has_score && !s.dimension.empty()) {
        s.quality_index = static_cast<int8_t>(QualityDimensionIndex(s.dimension));
        r->scores.push_back(s);
      }
      return ok;
    });
  } else if (k == "freeText") {
    if (!how.fields.Has(ReviewField::kFreeText)) return true;
    r->has_free_text = true;
    return ForFields(x, [&](std::string_view fk, od::value fx) {
      if (fk == "liked" || fk == "disliked" || fk == "generalNotes") {
        const std::string_view text = Str(fx);
        r->free_text_chars += text.size();
        if (fk == "liked") r->liked = text;
        if (fk == "disliked") r->disliked = text;
      } else if (fk == "_extractedThemes") {
        return Strings(fx, &r->themes);
      } else if (fk == "_sentiment") {
        r->sentiment = Dbl(fx);
      }
      return true;
    });
  } else if (k == "comparison") {
    if (!how.fields.Has(ReviewField::kComparison)) return true;
    return ReadComparison(x, &r->comparison.emplace());
  } else if (k == "annotations") {
    if (!how.fields.Has(ReviewField::kAnnotations)) return true;
    return ForElements(x, [&](od::value e) {
      model::AnnotationView a;
      bool ok = ForFields(e, [&](std::string_view ak, od::value ax) {
        if (ak == "type") {
          a.type = Str(ax);
        } else if (ak == "severity") {
          a.severity = Str(ax);
        } else if (ak == "category") {
          a.category = Str(ax);
        } else if (ak == "text") {
          a.text = Str(ax);
        }
        return true;
      });
      r->annotations.push_back(a);
      return ok;
    });
  } else if (k == "confidence") {
    return ForFields(x, [&](std::string_view ck, od::value cx) {
      if (ck == "level") {
        r->confidence = ParseConfidence(Str(cx));
      } else if (ck == "wouldDelegateToAI") {
        r->would_delegate = Bool(cx).value_or(false);
      } else if (ck == "needsExpertReview") {
        r->needs_expert = Bool(cx).value_or(false);
      }
      return true;
    });
  } else if (k == "override") {
    std::string_view o = Str(x);
    r->override_weight = o == "strong" ? model::Override::kStrong
                         : o == "weak" ? model::Override::kWeak
                                       : model::Override::kNone;
  } else if (k == "meta") {
    if (how.fields.Has(ReviewField::kMeta)) return ReadMeta(x, r);
    if (how.fields.Has(ReviewField::kFatigue)) return ReadFatigue(x, how, r);
  } else if (k == "_predictionDelta") {
    r->prediction_delta = Dbl(x);
  }
  return true;
}

}  // namespace kaizen::learn::internal
