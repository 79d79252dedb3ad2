// The decoders of the events that report on agents' work as it runs (outcome, error, reward,
// loop): flat fields, each onto its view.
#include <string_view>

#include "learn/event_reader_internal.h"
#include "model/schema.h"

namespace kaizen::learn::internal {

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

}  // namespace kaizen::learn::internal
