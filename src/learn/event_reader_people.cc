// The decoders of what people do besides reviewing (correction, admin, prompt): flat fields,
// each onto its view.
#include <string_view>

#include "learn/event_reader_internal.h"

namespace kaizen::learn::internal {

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

}  // namespace kaizen::learn::internal
