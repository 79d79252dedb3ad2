#include "model/schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/event_kind.h"

namespace kaizen::model {
namespace {

std::vector<std::string_view> RequiredNames(const ObjectSpec& spec) {
  std::vector<std::string_view> out;
  for (const FieldSpec& f : spec.fields) {
    if (f.required) out.push_back(f.name);
  }
  return out;
}

std::vector<EventKind> AllKinds() {
  std::vector<EventKind> kinds;
  for (int i = 0; i < kEventKindCount; ++i) kinds.push_back(static_cast<EventKind>(i));
  return kinds;
}

TEST(Schema, EveryKindStartsWithKindIdTimestamp) {
  for (EventKind kind : AllKinds()) {
    const ObjectSpec& spec = SchemaFor(kind);
    ASSERT_GE(spec.fields.size(), 3u) << KindName(kind);
    EXPECT_EQ(spec.fields[0].name, "kind") << KindName(kind);
    EXPECT_EQ(spec.fields[0].type, JsonType::kIdentifier);
    EXPECT_TRUE(spec.fields[0].required);
    EXPECT_EQ(spec.fields[1].name, "id") << KindName(kind);
    EXPECT_EQ(spec.fields[1].type, JsonType::kUuid);
    EXPECT_FALSE(spec.fields[1].required) << "id is generated when absent";
    EXPECT_EQ(spec.fields[2].name, "timestamp") << KindName(kind);
    EXPECT_EQ(spec.fields[2].type, JsonType::kTimestamp);
    EXPECT_FALSE(spec.fields[2].required) << "timestamp is now when absent";
  }
}

TEST(Schema, EachKindsSpecIsNamedAfterTheKind) {
  for (EventKind kind : AllKinds()) {
    EXPECT_EQ(SchemaFor(kind).name, KindName(kind));
  }
}

TEST(Schema, NoSpecHasDuplicateFieldNames) {
  for (EventKind kind : AllKinds()) {
    std::set<std::string_view> names;
    for (const FieldSpec& f : SchemaFor(kind).fields) {
      EXPECT_TRUE(names.insert(f.name).second) << KindName(kind) << "." << f.name;
    }
  }
}

TEST(Schema, IndexOfFindsEveryFieldFromAnyStartAndNoUnknownOne) {
  for (EventKind kind : AllKinds()) {
    const ObjectSpec& spec = SchemaFor(kind);
    const size_t n = spec.fields.size();
    for (size_t from = 0; from <= n + 1; ++from) {  // past the end: searched from the start
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(spec.IndexOf(spec.fields[i].name, from), static_cast<int>(i))
            << KindName(kind) << "." << spec.fields[i].name << " from " << from;
      }
      EXPECT_EQ(spec.IndexOf("noSuchField", from), -1) << KindName(kind) << " from " << from;
    }
  }
}

TEST(Schema, IndexOfMatchesNoNameThatDiffersInOneByteOrInLength) {
  // Names are compared a word at a time: a difference in any byte, first, middle or last, of a
  // name of any length must tell it from the field.
  for (EventKind kind : AllKinds()) {
    const ObjectSpec& spec = SchemaFor(kind);
    // `other` is found only as a field of that very name, if there is one.
    auto found_only_as_itself = [&](const std::string& other) {
      const int found = spec.IndexOf(other);
      return found < 0 || spec.fields[static_cast<size_t>(found)].name == other;
    };
    for (const FieldSpec& f : spec.fields) {
      const std::string name(f.name);
      for (size_t at = 0; at < name.size(); ++at) {
        std::string changed = name;
        changed[at] = static_cast<char>(changed[at] ^ 0x01);
        EXPECT_TRUE(found_only_as_itself(changed)) << KindName(kind) << "." << name << " at " << at;
      }
      EXPECT_TRUE(found_only_as_itself(name + "x")) << KindName(kind) << "." << name;
      EXPECT_TRUE(found_only_as_itself(name.substr(0, name.size() - 1)))
          << KindName(kind) << "." << name;
    }
  }
}

TEST(Schema, QualityDimensionsMatchSeed000InOrder) {
  const std::vector<std::string_view> seed = {"code-quality",
                                              "design-aesthetics",
                                              "design-ux",
                                              "test-coverage",
                                              "documentation",
                                              "architecture",
                                              "error-handling",
                                              "performance",
                                              "security",
                                              "creativity",
                                              "completeness",
                                              "naming",
                                              "dx"};
  EXPECT_EQ(QualityDimensions().size(), 13u);
  EXPECT_EQ(QualityDimensions(), seed);
}

TEST(Schema, ScoreDimensionEnumIsTheThirteenDimensionsInSeedOrder) {
  const FieldSpec* scores = SchemaFor(EventKind::kFeedback).Find("scores");
  ASSERT_NE(scores, nullptr);
  EXPECT_EQ(scores->type, JsonType::kArray);
  ASSERT_NE(scores->object, nullptr);
  const FieldSpec* dimension = scores->object->Find("dimension");
  ASSERT_NE(dimension, nullptr);
  EXPECT_TRUE(dimension->required);
  EXPECT_EQ(dimension->one_of, QualityDimensions());
  const FieldSpec* score = scores->object->Find("score");
  ASSERT_NE(score, nullptr);
  EXPECT_EQ(score->min, 1);
  EXPECT_EQ(score->max, 10);
}

TEST(Schema, ComparisonDimensionWinnersUseTheSameDimensions) {
  const FieldSpec* comparison = SchemaFor(EventKind::kFeedback).Find("comparison");
  ASSERT_NE(comparison, nullptr);
  ASSERT_NE(comparison->object, nullptr);
  const FieldSpec* dims = comparison->object->Find("dimensions");
  ASSERT_NE(dims, nullptr);
  ASSERT_NE(dims->object, nullptr);
  const FieldSpec* dimension = dims->object->Find("dimension");
  ASSERT_NE(dimension, nullptr);
  EXPECT_EQ(dimension->one_of, QualityDimensions());
}

TEST(Schema, WorkProductRefRequiredFieldsAreSeed000s) {
  const ObjectSpec& spec = WorkProductRefSpec();
  EXPECT_EQ(spec.name, "WorkProductRef");
  const std::vector<std::string_view> expected = {
      "type", "id", "version", "summary", "bubaConfidence", "generationContext"};
  EXPECT_EQ(RequiredNames(spec), expected);
  ASSERT_NE(spec.Find("path"), nullptr);
  EXPECT_FALSE(spec.Find("path")->required);
  ASSERT_NE(spec.Find("bubaScorePrediction"), nullptr);
  EXPECT_FALSE(spec.Find("bubaScorePrediction")->required);
  EXPECT_EQ(spec.Find("bubaScorePrediction")->min, 1);
  EXPECT_EQ(spec.Find("bubaScorePrediction")->max, 10);
  EXPECT_EQ(spec.Find("bubaConfidence")->min, 0);
  EXPECT_EQ(spec.Find("bubaConfidence")->max, 1);
}

TEST(Schema, WorkProductTypeEnumIsSeed000s) {
  const FieldSpec* type = WorkProductRefSpec().Find("type");
  ASSERT_NE(type, nullptr);
  const std::vector<std::string_view> expected = {"mcp-server", "code-module",   "design",
                                                  "test-suite", "documentation", "pipeline-config"};
  EXPECT_EQ(type->one_of, expected);
}

TEST(Schema, GenerationContextRequiresAllFiveSeedFields) {
  const FieldSpec* gc = WorkProductRefSpec().Find("generationContext");
  ASSERT_NE(gc, nullptr);
  ASSERT_NE(gc->object, nullptr);
  const std::vector<std::string_view> expected = {"promptHash", "memorySnapshot", "modelUsed",
                                                  "generationTimeMs", "iterationCount"};
  EXPECT_EQ(RequiredNames(*gc->object), expected);
}

TEST(Schema, FeedbackAndWorkUseTheWorkProductRefSpec) {
  const FieldSpec* fb = SchemaFor(EventKind::kFeedback).Find("workProduct");
  ASSERT_NE(fb, nullptr);
  EXPECT_TRUE(fb->required);
  EXPECT_EQ(fb->object, &WorkProductRefSpec());
  const FieldSpec* work = SchemaFor(EventKind::kWork).Find("workProduct");
  ASSERT_NE(work, nullptr);
  EXPECT_TRUE(work->required);
  EXPECT_EQ(work->object, &WorkProductRefSpec());
}

TEST(Schema, FeedbackRequiredFieldsFollowSeed000) {
  const std::vector<std::string_view> expected = {"kind",        "sessionId",     "modalId",
                                                  "workProduct", "pipelineStage", "meta"};
  EXPECT_EQ(RequiredNames(SchemaFor(EventKind::kFeedback)), expected);
}

TEST(Schema, DecisionEnumIsSeed000s) {
  const FieldSpec* decision = SchemaFor(EventKind::kFeedback).Find("decision");
  ASSERT_NE(decision, nullptr);
  const FieldSpec* d = decision->object->Find("decision");
  ASSERT_NE(d, nullptr);
  const std::vector<std::string_view> expected = {"approved", "rejected", "needs-work", "deferred"};
  EXPECT_EQ(d->one_of, expected);
}

TEST(Schema, FindReturnsNullForUnknownField) {
  EXPECT_EQ(SchemaFor(EventKind::kFeedback).Find("nope"), nullptr);
  EXPECT_EQ(WorkProductRefSpec().Find(""), nullptr);
}

TEST(Schema, CorrectionContextIsOpen) {
  const FieldSpec* ctx = SchemaFor(EventKind::kCorrection).Find("context");
  ASSERT_NE(ctx, nullptr);
  ASSERT_NE(ctx->object, nullptr);
  EXPECT_TRUE(ctx->object->open);
  EXPECT_FALSE(SchemaFor(EventKind::kCorrection).open);
}

TEST(Schema, LoopMetricsMustBeNonEmpty) {
  const FieldSpec* metrics = SchemaFor(EventKind::kLoop).Find("metrics");
  ASSERT_NE(metrics, nullptr);
  EXPECT_TRUE(metrics->required);
  EXPECT_TRUE(metrics->nonempty);
}

TEST(Schema, JsonTypeNamesReadAsMessages) {
  EXPECT_EQ(JsonTypeName(JsonType::kString), "string");
  EXPECT_EQ(JsonTypeName(JsonType::kIdentifier), "non-empty string");
  EXPECT_EQ(JsonTypeName(JsonType::kNumber), "number");
  EXPECT_EQ(JsonTypeName(JsonType::kInteger), "integer");
  EXPECT_EQ(JsonTypeName(JsonType::kBool), "boolean");
  EXPECT_EQ(JsonTypeName(JsonType::kObject), "object");
  EXPECT_EQ(JsonTypeName(JsonType::kArray), "array");
  EXPECT_EQ(JsonTypeName(JsonType::kTimestamp), "ISO 8601 timestamp");
  EXPECT_EQ(JsonTypeName(JsonType::kUuid), "UUID");
}

TEST(Schema, KindNamesRoundTripAndListInOrder) {
  for (EventKind kind : AllKinds()) {
    auto parsed = ParseKind(KindName(kind));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, kind);
  }
  EXPECT_FALSE(ParseKind("Feedback").has_value());
  EXPECT_FALSE(ParseKind("").has_value());
  EXPECT_EQ(KindList(), "feedback, work, outcome, error, reward, correction, loop, admin, prompt");
}

}  // namespace
}  // namespace kaizen::model

namespace kaizen::model {
namespace {

// The validator tracks which fields it has seen in a 64-bit set.
TEST(Schema, EveryShapeFitsTheValidatorsFieldBitset) {
  for (int k = 0; k < kEventKindCount; ++k) {
    const ObjectSpec& spec = SchemaFor(static_cast<EventKind>(k));
    EXPECT_LE(spec.fields.size(), ObjectSpec::kMaxFields) << spec.name;
    for (const FieldSpec& f : spec.fields) {
      if (f.object) {
        EXPECT_LE(f.object->fields.size(), ObjectSpec::kMaxFields) << f.object->name;
      }
    }
  }
}

}  // namespace
}  // namespace kaizen::model
