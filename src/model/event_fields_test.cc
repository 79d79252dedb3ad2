#include "model/event_fields.h"

#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "model/event_kind.h"
#include "model/schema.h"

namespace kaizen::model {
namespace {

void CollectNames(const ObjectSpec& spec, std::set<std::string_view>* names) {
  for (const FieldSpec& f : spec.fields) {
    names->insert(f.name);
    if (f.object != nullptr) CollectNames(*f.object, names);
  }
}

TEST(EventFieldTest, NamesEveryFieldOfTheSchemaAndNothingElse) {
  std::set<std::string_view> schema;
  for (int k = 0; k < kEventKindCount; ++k)
    CollectNames(SchemaFor(static_cast<EventKind>(k)), &schema);
  std::set<std::string_view> constants;
#define KAIZEN_COLLECT(name) constants.insert(EventField::name.view());
  KAIZEN_EVENT_FIELDS(KAIZEN_COLLECT)
#undef KAIZEN_COLLECT
  EXPECT_EQ(constants, schema);
}

TEST(EventFieldTest, AConstantIsSpelledAsItsField) {
  EXPECT_EQ(EventField::reviewerId.view(), "reviewerId");
  EXPECT_EQ(EventField::session_id.view(), "session_id");
  EXPECT_EQ(EventField::_extractedThemes.view(), "_extractedThemes");
  EXPECT_EQ(ContextField::task_type.view(), "task_type");
}

}  // namespace
}  // namespace kaizen::model
