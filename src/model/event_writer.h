// Writing an event: its kind and its fields through the names of model/event_fields.h, the values
// through base/json_writer.h. Fields are written in the order the producer calls these: the
// stored line keeps an event's fields in the order its producer wrote them (ingest/stored_line.h),
// so that order is part of what each producer's output is.
#pragma once

#include <string_view>

#include "base/json_writer.h"
#include "model/event_fields.h"
#include "model/event_kind.h"

namespace kaizen::model {

// "kind":"<the kind's name>".
inline void Kind(base::JsonWriter& w, EventKind kind) {
  base::Key(w, EventField::kind.view());
  base::Str(w, KindName(kind));
}

inline void Key(base::JsonWriter& w, FieldName field) { base::Key(w, field.view()); }

// A string member.
inline void Field(base::JsonWriter& w, FieldName field, std::string_view value) {
  Key(w, field);
  base::Str(w, value);
}

}  // namespace kaizen::model
