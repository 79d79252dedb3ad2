#include "learn/event_reader.h"

#include <algorithm>

#include "learn/reviews/quality_index.h"
#include "model/schema.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

namespace od = simdjson::ondemand;
using simdjson::SUCCESS;

// Where strings with escape sequences go when the views must outlive the parser's buffers
// (ReadDurable); null: they stay in the parser's string buffer.
thread_local std::deque<std::string>* tls_escaped = nullptr;

// A field's key, without unescaping: kaizen's keys have no escapes, and a key that had one would
// simply match no field.
std::string_view RawKey(const od::field& f) {
  const char* p = reinterpret_cast<const char*>(f.key().raw());
  const char* q = p;
  while (*q != '"') {
    if (*q == '\\') ++q;  // skip the escaped character
    ++q;
  }
  return std::string_view(p, static_cast<size_t>(q - p));
}

// Calls fn(key, value) for each field of `v`'s object; false when `v` is not a readable object
// or fn returns false. Fields fn does not consume are skipped without being parsed.
template <typename Fn>
bool ForFields(od::value v, Fn&& fn) {
  od::object o;
  if (v.get_object().get(o) != SUCCESS) return false;
  for (auto result : o) {
    od::field field;
    if (std::move(result).get(field) != SUCCESS) return false;
    std::string_view key = RawKey(field);
    if (!fn(key, field.value())) return false;
  }
  return true;
}

template <typename Fn>
bool ForElements(od::value v, Fn&& fn) {
  od::array a;
  if (v.get_array().get(a) != SUCCESS) return false;
  for (auto element : a) {
    od::value value;
    if (element.get(value) != SUCCESS) return false;
    if (!fn(value)) return false;
  }
  return true;
}

// Typed reads: a value of another type (never in stored lines) leaves the default.
// A string without escapes is its raw bytes in the input: no copy, and valid as long as the
// input is. One with escapes is unescaped by simdjson (into the parser's buffer, or kept in
// tls_escaped for a durable read).
std::string_view Str(od::value v) {
  std::string_view token = v.raw_json_token();
  if (token.size() >= 2 && token.front() == '"') {
    size_t end = token.size() - 1;
    while (end > 0 && token[end] != '"') --end;  // trailing spaces after the closing quote
    std::string_view content = token.substr(1, end > 0 ? end - 1 : 0);
    if (end > 0 && content.find('\\') == std::string_view::npos) return content;
  }
  std::string_view s;
  if (v.get_string().get(s) != SUCCESS) return {};
  if (tls_escaped != nullptr) return tls_escaped->emplace_back(s);
  return s;
}
std::optional<double> Dbl(od::value v) {
  double d;
  if (v.get_double().get(d) != SUCCESS) return std::nullopt;
  return d;
}
int64_t IntOr0(od::value v) {
  int64_t i;
  if (v.get_int64().get(i) == SUCCESS) return i;
  return 0;
}
std::optional<bool> Bool(od::value v) {
  bool b;
  if (v.get_bool().get(b) != SUCCESS) return std::nullopt;
  return b;
}
bool Strings(od::value v, std::vector<std::string_view>* out) {
  out->clear();
  return ForElements(v, [&](od::value e) {
    od::json_type type;
    if (e.type().get(type) == SUCCESS && type == od::json_type::string) out->push_back(Str(e));
    return true;
  });
}
size_t CountElements(od::value v) {
  size_t n = 0;
  ForElements(v, [&](od::value) {
    ++n;
    return true;
  });
  return n;
}

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

// What of a review to read (EventReader::set_review_fields), and where to parse a `meta` again
// that must be walked for its sessionFatigue alone.
struct ReviewReading {
  ReviewFields fields;
  od::parser* meta_parser;
  std::string* meta_padded;
};

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

bool OutcomeField(std::string_view k, od::value x, model::OutcomeView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "bead_id") {
    v->bead_id = Str(x);
  } else if (k == "strategy") {
    v->strategy = Str(x);
  } else if (k == "failure_mode") {
    v->failure_mode = Str(x);
  } else if (k == "failure_details") {
    v->failure_details = Str(x);
  } else if (k == "description") {
    v->description = Str(x);
  } else if (k == "duration_ms") {
    v->duration_ms = Dbl(x).value_or(0);
  } else if (k == "error_count") {
    v->error_count = IntOr0(x);
  } else if (k == "retry_count") {
    v->retry_count = IntOr0(x);
  } else if (k == "success") {
    v->success = Bool(x).value_or(false);
  } else if (k == "files_touched") {
    return Strings(x, &v->files_touched);
  } else if (k == "criteria") {
    return Strings(x, &v->criteria);
  } else if (k == "patterns") {
    return Strings(x, &v->patterns);
  }
  return true;
}

bool ErrorField(std::string_view k, od::value x, model::ErrorView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "bead_id") {
    v->bead_id = Str(x);
  } else if (k == "error_type") {
    v->error_type = Str(x);
  } else if (k == "message") {
    v->message = Str(x);
  } else if (k == "stack_trace") {
    v->stack_trace = Str(x);
  } else if (k == "tool_name") {
    v->tool_name = Str(x);
  } else if (k == "context") {
    v->context = Str(x);
  } else if (k == "resolves") {
    v->resolves = Str(x);
  }
  return true;
}

bool RewardField(std::string_view k, od::value x, model::RewardView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "signal_type") {
    v->signal_type = Str(x);
  } else if (k == "source") {
    v->source = Str(x);
  } else if (k == "task_id") {
    v->task_id = Str(x);
  } else if (k == "session_id") {
    v->session_id = Str(x);
  } else if (k == "commit_hash") {
    v->commit_hash = Str(x);
  } else if (k == "signal_value") {
    v->signal_value = Dbl(x).value_or(0);
  } else if (k == "raw_value") {
    v->raw_number = Dbl(x);
  } else if (k == "confidence") {
    v->confidence = Dbl(x);
  } else if (k == "delay_days") {
    v->delay_days = IntOr0(x);
  } else if (k == "context") {
    (void)ForFields(x, [&](std::string_view ck, od::value cx) {
      if (ck == "detector") {
        v->detector = Str(cx);
      } else if (ck == "agent") {
        v->agent = Str(cx);
      } else if (ck == "task_type") {
        v->context_task_type = Str(cx);
      } else if (ck == "commits") {
        bool first = true;
        (void)ForElements(cx, [&](od::value c) {
          if (first) v->agent_commit = Str(c);
          first = false;
          return true;
        });
      }
      return true;
    });
  }
  return true;
}

bool CorrectionField(std::string_view k, od::value x, model::CorrectionView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "session_id") {
    v->session_id = Str(x);
  } else if (k == "correction_type") {
    v->correction_type = Str(x);
  } else if (k == "_category") {
    v->category = Str(x);
  } else if (k == "original") {
    v->original = Str(x);
  } else if (k == "corrected") {
    v->corrected = Str(x);
  } else if (k == "user_id") {
    v->user_id = Str(x);
  } else if (k == "correction_method") {
    v->method = Str(x);
  } else if (k == "context") {
    // seed 004 context.project: where a learned correction pattern applies; context.file: whether
    // the texts are code.
    (void)ForFields(x, [&](std::string_view ck, od::value cx) {
      if (ck == "project") v->project = Str(cx);
      if (ck == "file") v->file = Str(cx);
      return true;
    });
  }
  return true;
}

bool LoopField(std::string_view k, od::value x, model::LoopView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "loop_id") {
    v->loop_id = Str(x);
  } else if (k == "feedback") {
    v->feedback = Str(x);
  } else if (k == "iteration") {
    v->iteration = IntOr0(x);
  } else if (k == "cost") {
    v->cost = Dbl(x).value_or(0);
  } else if (k == "elapsed_seconds") {
    v->elapsed_seconds = Dbl(x).value_or(0);
  } else if (k == "metrics") {
    model::LoopMetricsView& q = v->metrics;
    return ForFields(x, [&](std::string_view mk, od::value mx) {
      mk = model::CanonicalMetric(mk);
      if (mk == "test_coverage") {
        q.test_coverage = Dbl(mx);
      } else if (mk == "code_quality_score") {
        q.code_quality_score = Dbl(mx);
      } else if (mk == "security_score") {
        q.security_score = Dbl(mx);
      } else if (mk == "type_coverage") {
        q.type_coverage = Dbl(mx);
      } else if (mk == "doc_coverage") {
        q.doc_coverage = Dbl(mx);
      } else if (mk == "overall_quality") {
        q.overall_quality = Dbl(mx);
      } else if (mk == "duplications") {
        q.duplications = Dbl(mx);
      } else if (mk == "tests_passing") {
        q.tests_passing = Bool(mx);
      } else if (mk == "test_count") {
        q.test_count = IntOr0(mx);
      } else if (mk == "complexity") {
        q.complexity = IntOr0(mx);
      } else if (mk == "vulnerabilities") {
        q.vulnerabilities = IntOr0(mx);
      } else if (mk == "type_errors") {
        q.type_errors = IntOr0(mx);
      }
      return true;
    });
  }
  return true;
}

bool AdminField(std::string_view k, od::value x, model::AdminView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "action") {
    v->action = Str(x);
  } else if (k == "rule_id") {
    v->rule_id = Str(x);
  } else if (k == "verdict") {
    v->verdict = Str(x);
  } else if (k == "user_id") {
    v->user_id = Str(x);
  } else if (k == "session_id") {
    v->session_id = Str(x);
  } else if (k == "reviewerId") {
    v->reviewer = Str(x);
  } else if (k == "note") {
    v->note = Str(x);
  } else if (k == "work_id") {
    v->work_id = Str(x);
  } else if (k == "work_version") {
    v->work_version = Str(x);
  } else if (k == "learning_mode") {
    v->learning_mode = Bool(x);
  } else if (k == "minutes") {
    v->minutes = IntOr0(x);
  } else if (k == "task_id") {
    v->task_id = Str(x);
  } else if (k == "question") {
    v->question = Str(x);
  } else if (k == "question_id") {
    v->question_id = Str(x);
  }
  return true;
}

bool PromptField(std::string_view k, od::value x, model::PromptView* v) {
  if (k == "id") {
    v->id = Str(x);
  } else if (k == "session_id") {
    v->session_id = Str(x);
  } else if (k == "text") {
    v->text = Str(x);
  } else if (k == "agent") {
    v->agent = Str(x);
  } else if (k == "project") {
    v->project = Str(x);
  } else if (k == "_judgement") {
    v->judgement = Str(x);
  } else if (k == "_instruction") {
    v->instruction = Str(x);
  } else if (k == "_extractedThemes") {
    return Strings(x, &v->themes);
  } else if (k == "_sentiment") {
    v->sentiment = Dbl(x).value_or(0);
  }
  return true;
}

}  // namespace

uint32_t WorkRegistry::NameId(std::string_view s) {
  if (s.empty()) return 0;
  auto it = name_ids_.find(s);
  if (it != name_ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(Keep(s));
  name_ids_.emplace(names_.back(), id);
  return id;
}

std::string_view WorkRegistry::Keep(std::string_view s) {
  constexpr size_t kBlock = 1 << 20;
  if (s.size() > arena_left_) {
    size_t size = std::max(kBlock, s.size());
    // Not zeroed: every byte handed out is written by the copy below first.
    arena_.push_back(std::make_unique_for_overwrite<char[]>(size));
    arena_next_ = arena_.back().get();
    arena_left_ = size;
  }
  char* at = arena_next_;
  std::copy(s.begin(), s.end(), at);
  arena_next_ += s.size();
  arena_left_ -= s.size();
  return std::string_view(at, s.size());
}

model::WorkView WorkRegistry::Register(const model::WorkView& work) {
  auto it = latest_.find(work.artifact_id);
  uint32_t previous = it == latest_.end() ? kNone : it->second;
  // A version registered again shadows the earlier registration: Find returns the newest.
  if (previous == kNone || EntryOf(previous, work.version) == kNone) ++size_;
  const uint32_t depth = previous == kNone ? 1 : entries_[previous].depth + 1;
  const auto index = static_cast<uint32_t>(entries_.size());
  // Keep only what the rules read by reference (the summary: comparisons' design words).
  const std::string_view artifact_id =
      it == latest_.end() ? Keep(work.artifact_id) : std::string_view(it->first);
  entries_.push_back(Entry{work.at_ms, artifact_id, Keep(work.version), Keep(work.summary),
                           work.confidence, work.score_prediction.value_or(0), work.iteration_count,
                           previous, depth, NameId(work.type), NameId(work.server_type),
                           NameId(work.stage), NameId(work.model), NameId(work.project),
                           work.score_prediction.has_value(), work.experimental});
  if (it == latest_.end()) {
    latest_.emplace(artifact_id, index);
  } else {
    it->second = index;
  }
  if (depth == kWalked + 1) {
    // The artifact outgrows the walk: index its whole chain, oldest first so the newest wins.
    std::vector<uint32_t> chain;
    for (uint32_t e = index; e != kNone; e = entries_[e].previous) chain.push_back(e);
    for (auto e = chain.rbegin(); e != chain.rend(); ++e) {
      by_version_[{artifact_id, entries_[*e].version}] = *e;
    }
  } else if (depth > kWalked + 1) {
    by_version_[{artifact_id, entries_[index].version}] = index;
  }
  model::WorkView whole = ViewOf(entries_[index]);
  whole.event_id = work.event_id;
  whole.session_id = work.session_id;
  whole.path = work.path;
  whole.priority = names_[NameId(work.priority)];
  whole.commit = work.commit;
  whole.diff = work.diff;
  whole.for_review = work.for_review;
  whole.required_reviews = work.required_reviews;
  whole.compare_with = work.compare_with;
  return whole;
}

model::WorkView WorkRegistry::ViewOf(const Entry& e) const {
  model::WorkView w;
  w.at_ms = e.at_ms;
  w.artifact_id = e.artifact_id;
  w.version = e.version;
  w.type = names_[e.type];
  w.server_type = names_[e.server_type];
  w.stage = names_[e.stage];
  w.model = names_[e.model];
  w.project = names_[e.project];
  w.summary = e.summary;
  w.confidence = e.confidence;
  if (e.has_prediction) w.score_prediction = e.score_prediction;
  w.iteration_count = e.iteration_count;
  w.experimental = e.experimental;
  return w;
}

std::optional<model::WorkView> WorkRegistry::Find(std::string_view artifact_id,
                                                  std::string_view version) const {
  auto it = latest_.find(artifact_id);
  if (it == latest_.end()) return std::nullopt;
  const uint32_t e = version.empty() ? it->second : EntryOf(it->second, version);
  if (e == kNone) return std::nullopt;
  return ViewOf(entries_[e]);
}

uint32_t WorkRegistry::EntryOf(uint32_t latest, std::string_view version) const {
  if (entries_[latest].depth > kWalked) {
    auto it = by_version_.find(std::pair{entries_[latest].artifact_id, version});
    return it == by_version_.end() ? kNone : it->second;
  }
  for (uint32_t e = latest; e != kNone; e = entries_[e].previous) {
    if (entries_[e].version == version) return e;
  }
  return kNone;
}

std::vector<std::string_view> WorkRegistry::Versions(std::string_view artifact_id) const {
  std::vector<std::string_view> out;
  auto it = latest_.find(artifact_id);
  if (it == latest_.end()) return out;
  absl::flat_hash_set<std::string_view> seen;  // never iterated
  for (uint32_t e = it->second; e != kNone; e = entries_[e].previous) {
    const std::string_view v = entries_[e].version;
    if (seen.insert(v).second) out.push_back(v);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

namespace {

// Empties the view of `kind` for a new event (the vectors keep their capacity).
void StartView(model::EventKind kind, EventViews* out) {
  out->kind = kind;
  switch (kind) {
    case model::EventKind::kFeedback:
      ResetReview(&out->review);
      break;
    case model::EventKind::kWork:
      out->work = model::WorkView();
      break;
    case model::EventKind::kOutcome:
      out->outcome.files_touched.clear();
      out->outcome.criteria.clear();
      out->outcome.patterns.clear();
      out->outcome = model::OutcomeView{0,
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        0,
                                        0,
                                        0,
                                        false,
                                        std::move(out->outcome.files_touched),
                                        std::move(out->outcome.criteria),
                                        std::move(out->outcome.patterns)};
      break;
    case model::EventKind::kError:
      out->error = model::ErrorView();
      break;
    case model::EventKind::kReward:
      out->reward = model::RewardView();
      break;
    case model::EventKind::kCorrection:
      out->correction = model::CorrectionView();
      break;
    case model::EventKind::kLoop:
      out->loop = model::LoopView();
      break;
    case model::EventKind::kAdmin:
      out->admin = model::AdminView();
      break;
    case model::EventKind::kPrompt:
      out->prompt.themes.clear();
      out->prompt = model::PromptView{.themes = std::move(out->prompt.themes)};
      break;
  }
}

// The time field of the kind's view: one place for EventTime to read and the readers to set.
template <typename Views>  // EventViews, or const EventViews
auto& TimeOf(Views& e) {
  switch (e.kind) {
    case model::EventKind::kFeedback:
      return e.review.at_ms;
    case model::EventKind::kWork:
      return e.work.at_ms;
    case model::EventKind::kOutcome:
      return e.outcome.at_ms;
    case model::EventKind::kError:
      return e.error.at_ms;
    case model::EventKind::kReward:
      return e.reward.at_ms;
    case model::EventKind::kCorrection:
      return e.correction.at_ms;
    case model::EventKind::kLoop:
      return e.loop.at_ms;
    case model::EventKind::kPrompt:
      return e.prompt.at_ms;
    case model::EventKind::kAdmin:
      break;
  }
  return e.admin.at_ms;
}

// The string value of `"<key>":` at *pos, when it has no escape sequence and only printable ASCII
// (what ingest writes for kind, id and timestamp), and *pos moved past its closing quote.
std::optional<std::string_view> PlainStringField(std::string_view line, std::string_view key,
                                                 size_t* pos) {
  // key, with its quotes and colon, then the value's opening quote.
  if (line.size() < *pos + key.size() + 4 || line[*pos] != '"' ||
      line.compare(*pos + 1, key.size(), key) != 0 || line[*pos + 1 + key.size()] != '"' ||
      line[*pos + 2 + key.size()] != ':' || line[*pos + 3 + key.size()] != '"') {
    return std::nullopt;
  }
  const size_t start = *pos + key.size() + 4;
  for (size_t i = start; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == '"') {
      *pos = i + 1;
      return line.substr(start, i - start);
    }
    if (c == '\\' || c < 0x20 || c >= 0x7f) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool EventReader::ReadHeaderOnly(std::string_view line, EventViews* out) const {
  // {"kind":K,["id":I,]"timestamp":T then `,` or `}` (the order ingest writes), on a line that
  // ends with `}`: a torn or truncated one is left to the parser, which reports it.
  const size_t last = line.find_last_not_of(" \t\r");
  if (line.empty() || line[0] != '{' || last == std::string_view::npos || line[last] != '}') {
    return false;
  }
  size_t pos = 1;
  const std::optional<std::string_view> kind_name = PlainStringField(line, "kind", &pos);
  if (!kind_name) return false;
  const std::optional<model::EventKind> kind = model::ParseKind(*kind_name);
  if (!kind || read_whole_.Has(*kind)) return false;
  if (pos >= line.size() || line[pos++] != ',') return false;
  if (PlainStringField(line, "id", &pos)) {
    if (pos >= line.size() || line[pos++] != ',') return false;
  }
  const std::optional<std::string_view> time = PlainStringField(line, "timestamp", &pos);
  if (!time || pos >= line.size() || (line[pos] != ',' && line[pos] != '}')) return false;
  Result<model::Timestamp> ts = model::ParseTimestamp(*time);
  if (!ts.ok()) return false;
  out->prepared.by = nullptr;
  StartView(*kind, out);
  TimeOf(*out) = ts.value().unix_ms;
  return true;
}

bool EventReader::ReadDurable(od::object event, std::deque<std::string>* escaped, EventViews* out) {
  std::deque<std::string>* saved = tls_escaped;
  tls_escaped = escaped;
  bool ok = Read(event, out);
  tls_escaped = saved;
  return ok;
}

bool EventReader::Read(od::object event, EventViews* out) {
  out->prepared.by = nullptr;
  std::optional<model::EventKind> kind;
  int64_t at = 0;
  bool have_time = false;
  bool first = true;
  for (auto result : event) {
    od::field field;
    if (std::move(result).get(field) != SUCCESS) return false;
    std::string_view key = RawKey(field);
    od::value x = field.value();
    if (first) {
      // A stored line starts with its kind; anything else is not one of ours.
      if (key != "kind") return false;
      kind = model::ParseKind(Str(x));
      if (!kind) return false;
      StartView(*kind, out);
      first = false;
      continue;
    }
    if (key == "timestamp") {
      // The first one counts: a reader that stops after it (set_read_whole) sees no other. A
      // stored line has one; a hand-edited one may repeat the key.
      if (have_time) continue;
      Result<model::Timestamp> ts = model::ParseTimestamp(Str(x));
      if (!ts.ok()) return false;
      at = ts.value().unix_ms;
      have_time = true;
      if (!read_whole_.Has(*kind)) break;  // the rest is left unread
      continue;
    }
    if (!read_whole_.Has(*kind)) continue;
    bool ok = true;
    switch (*kind) {
      case model::EventKind::kFeedback:
        ok = ReadReviewField(key, x, {review_fields_, &meta_parser_, &meta_padded_}, &out->review);
        break;
      case model::EventKind::kWork:
        ok = WorkField(key, x, &out->work);
        break;
      case model::EventKind::kOutcome:
        ok = OutcomeField(key, x, &out->outcome);
        break;
      case model::EventKind::kError:
        ok = ErrorField(key, x, &out->error);
        break;
      case model::EventKind::kReward:
        ok = RewardField(key, x, &out->reward);
        break;
      case model::EventKind::kCorrection:
        ok = CorrectionField(key, x, &out->correction);
        break;
      case model::EventKind::kLoop:
        ok = LoopField(key, x, &out->loop);
        break;
      case model::EventKind::kAdmin:
        ok = AdminField(key, x, &out->admin);
        break;
      case model::EventKind::kPrompt:
        ok = PromptField(key, x, &out->prompt);
        break;
    }
    if (!ok) return false;
  }
  if (!kind || !have_time) return false;
  TimeOf(*out) = at;
  return true;
}

int64_t EventTime(const EventViews& e) { return TimeOf(e); }

void ResolveInLogOrder(WorkRegistry* registry, EventViews* event) {
  if (event->kind == model::EventKind::kWork) {
    // The same strings, now the registry's: the review queue keeps them without copying.
    event->work = registry->Register(event->work);
    return;
  }
  if (event->kind != model::EventKind::kFeedback) return;
  model::ReviewView& r = event->review;
  if (!r.work_known) r.work_known = Resolve(*registry, &r.work);
  if (r.comparison) {
    Resolve(*registry, &r.comparison->option_a);
    Resolve(*registry, &r.comparison->option_b);
  }
  // The feedback's own mcpServerType wins; else the work event's (seed 000: the task type is the
  // server type, else the work product's type).
  std::string_view own_server = r.server_type;
  r.server_type = !own_server.empty() ? own_server : r.work.server_type;
  r.task_type = !r.server_type.empty() ? r.server_type : r.work.type;
  if (r.project.empty()) r.project = r.work.project;
}

bool EventReader::ReadJson(std::string_view json, EventViews* out) {
  padded_.assign(json);
  padded_.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc) != SUCCESS) {
    return false;
  }
  od::object o;
  if (doc.get_object().get(o) != SUCCESS) return false;
  return Read(o, out);
}

}  // namespace kaizen::learn
