// Each verb folds only the learner parts it reads (learn/sections.h) and reads whole only the
// kinds of event those parts take. A learner of those parts alone must give the verb the answer
// a learner of every part gives, on a generated history of every kind.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/test_files.h"
#include "checks/self_check_run.h"
#include "ingest/ingestor.h"
#include "learn/event_reader.h"
#include "learn/learner.h"
#include "learn/rules/self_check.h"
#include "model/timestamp.h"
#include "render/context.h"
#include "render/correction_patterns.h"
#include "render/hints.h"
#include "sim/gen_history.h"
#include "store/file_system.h"

namespace kaizen::cli {
namespace {

using learn::Learner;
using learn::Part;
using learn::Parts;

class LearnerParts : public ::testing::Test {
 protected:
  // The history as the log stores it: enriched by ingest (fatigue, time of day, themes,
  // sentiment), so a part that reads an enriched field but does not ask for it shows.
  static void SetUpTestSuite() {
    std::string generated;
    sim::GenerateHistory({.events = 6000, .seed = 11}, &generated);
    history_ = new std::string;
    const std::string home = base::test_files::MakeTempDir("kaizen-learner-parts");
    ingest::Ingestor ingestor(home, store::DefaultFileSystem());
    ingest::IngestOptions options;
    options.now_ms = model::ParseTimestamp("2026-01-01T00:00:00Z").value().unix_ms;
    // One group commit: the raw files' appends come in file-name order, which is log order.
    options.on_appended = [](const ingest::AppendedLines& a) { history_->append(a.text); };
    ingest::IngestSummary summary;
    ASSERT_TRUE(ingestor.Ingest(generated, options, &summary).ok());
    ASSERT_EQ(summary.stored, 6000u);
    std::error_code ec;
    std::filesystem::remove_all(home, ec);
  }
  static void TearDownTestSuite() {
    delete history_;
    history_ = nullptr;
  }

  // The history folded into a learner of `parts`, each line read as a verb's reader reads it,
  // and its reviews into *reviews when given (as `kaizen check` folds them).
  static std::unique_ptr<Learner> Fold(Parts parts, learn::ReviewHistory* reviews = nullptr) {
    auto learner = std::make_unique<Learner>(learn::LearnConfig{}, nullptr, parts);
    std::string_view rest = *history_;
    learn::EventReader reader;
    reader.set_scope(reviews ? learn::ReadScope() : learner->scope());
    learn::EventViews views;
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      EXPECT_TRUE(reader.ReadJson(line, &views)) << line;
      learner->Add(views);
      if (reviews && views.kind == model::EventKind::kFeedback) {
        reviews->Add(views.review, text::ThemeTaxonomy::Default());
      }
    }
    return learner;
  }

  static std::string* history_;
};
std::string* LearnerParts::history_ = nullptr;

TEST_F(LearnerParts, TheGeneratedHistoryHasSomethingForEveryVerbToSay) {
  const auto whole = Fold(Parts::All());
  const int64_t now = whole->newest_ms();
  EXPECT_EQ(whole->events(), 6000u);
  EXPECT_FALSE(whole->Rules(now).empty());
  EXPECT_FALSE(whole->corrections().Patterns().empty());
  EXPECT_FALSE(whole->gates().Gates(now).empty());
  EXPECT_GT(whole->calibration().Result().n, 0);
}

TEST_F(LearnerParts, TheWholeAnalysisFromItsPartsEqualsTheAnalysisOfEveryPart) {
  const auto whole = Fold(Parts::All());
  const auto part = Fold(learn::Sections::All().Needs());
  const int64_t now = whole->newest_ms();
  EXPECT_EQ(part->AnalysisJson(now), whole->AnalysisJson(now));
  EXPECT_EQ(part->AnalysisText(now), whole->AnalysisText(now));
}

TEST_F(LearnerParts, HintsFromTheirPartsEqualHintsFromEveryPart) {
  const auto whole = Fold(Parts::All());
  const auto part = Fold(render::kHintsParts);
  const int64_t now = whole->newest_ms();
  EXPECT_EQ(render::HintsSection(render::HintsInputFrom(*part, now, "")),
            render::HintsSection(render::HintsInputFrom(*whole, now, "")));
}

TEST_F(LearnerParts, ContextFromItsPartsEqualsContextFromEveryPart) {
  const auto whole = Fold(Parts::All());
  const auto part = Fold(render::kContextParts);
  const int64_t now = whole->newest_ms();
  for (const render::ContextQuery& q :
       {render::ContextQuery{"github", "", "review", {}},
        render::ContextQuery{"shopify", "mcp-server", "implement", {"error-handling"}},
        render::ContextQuery{}}) {
    render::ContextResult a = render::Context(*part, q, now);
    render::ContextResult b = render::Context(*whole, q, now);
    EXPECT_EQ(render::RenderContext(&a, render::ContextFormat::kJson, 100000),
              render::RenderContext(&b, render::ContextFormat::kJson, 100000))
        << q.server_type;
  }
}

TEST_F(LearnerParts, ASelfCheckFromItsPartsEqualsASelfCheckFromEveryPart) {
  learn::ReviewHistory part_reviews, whole_reviews;
  const auto whole = Fold(Parts::All(), &whole_reviews);
  const auto part = Fold(checks::kSelfCheckParts, &part_reviews);
  const int64_t now = whole->newest_ms();
  const std::vector<checks::CheckedFile> files = {
      {"src/client.ts", "client.ts", "export async function get() { return fetch(url); }\n"}};
  for (const char* task : {"github", "stripe", "unknown-task"}) {
    const learn::SelfCheckResult a = SelfCheckFiles(*part, part_reviews, now, task, {}, files,
                                                    learn::SelfCheckConfig{}, "id", "v");
    const learn::SelfCheckResult b = SelfCheckFiles(*whole, whole_reviews, now, task, {}, files,
                                                    learn::SelfCheckConfig{}, "id", "v");
    if (std::string_view(task) != "unknown-task") EXPECT_GT(b.history_reviews, 0) << task;
    // The A/B advice too (kSelfCheckParts folds the approvals it reads).
    const learn::CompareAdvice compare_a = part->AdviseComparison({task, a.raw_confidence, 1});
    const learn::CompareAdvice compare_b = whole->AdviseComparison({task, b.raw_confidence, 1});
    EXPECT_EQ(SelfCheckJson(a, compare_a, files, {}, "id", "v", false, "", ""),
              SelfCheckJson(b, compare_b, files, {}, "id", "v", false, "", ""))
        << task;
    // The review history each learner folds itself (what `kaizen check` and the stop hook read,
    // and what the checkpoint keeps) is the fold of every review the test made beside it.
    for (const Learner* learner : {part.get(), whole.get()}) {
      const learn::SelfCheckResult own =
          SelfCheckFiles(*learner, learner->review_history(), now, task, {}, files,
                         learn::SelfCheckConfig{}, "id", "v");
      EXPECT_EQ(SelfCheckJson(own, compare_b, files, {}, "id", "v", false, "", ""),
                SelfCheckJson(b, compare_b, files, {}, "id", "v", false, "", ""))
          << task;
    }
  }
  // A gate speaks only for a dimension predicted below it, which these files may not be: the
  // gates SelfCheckFiles reads must be the whole learner's all the same.
  const auto gates_of = [now](const Learner& learner) {
    std::string out;
    for (const learn::ScoreGate& g : learner.gates().Gates(now)) {
      out += g.dimension + " " + std::to_string(g.threshold) + " " +
             std::to_string(g.rejection_rate) + " " + std::to_string(g.scores) + "\n";
    }
    return out;
  };
  EXPECT_NE(gates_of(*whole), "");
  EXPECT_EQ(gates_of(*part), gates_of(*whole));
}

TEST_F(LearnerParts, EachSectionFromItsPartsEqualsThatSectionOfEveryPart) {
  const auto whole = Fold(Parts::All());
  for (size_t i = 0; i < learn::kSectionCount; ++i) {
    const learn::Section section = static_cast<learn::Section>(i);
    const learn::Sections only{section};
    const auto part = Fold(only.Needs());
    // At the newest event and a day later, when every window still holds the history.
    for (int64_t now : {whole->newest_ms(), whole->newest_ms() + 86'400'000}) {
      EXPECT_EQ(part->AnalysisJson(now, only), whole->AnalysisJson(now, only))
          << learn::SectionName(section);
      EXPECT_EQ(part->AnalysisText(now, only), whole->AnalysisText(now, only))
          << learn::SectionName(section);
    }
  }
}

TEST_F(LearnerParts, RulesAndCorrectionsFromTheirPartsEqualThoseFromEveryPart) {
  // The generated audits name rules no history learns: audit a learned rule and a learned
  // correction pattern, so the audits (admin events) must be read too.
  const auto first = Fold(Parts::All());
  const int64_t now = first->newest_ms() + 3'600'000;
  const std::vector<learn::LearnedRule> learned = first->Rules(now);
  const std::vector<learn::CorrectionPattern> patterns = first->corrections().Patterns();
  ASSERT_FALSE(learned.empty());
  ASSERT_FALSE(patterns.empty());
  const std::string saved = *history_;
  for (const std::string& id : {learned.front().id, patterns.front().id}) {
    *history_ += R"({"kind":"admin","id":"0199a237-f400-7744-a16c-8cd3b6bc83e)" +
                 std::to_string(history_->size() % 10) + R"(","timestamp":")" +
                 model::FormatUtc(now - 60'000) + R"(","action":"rule_audit","rule_id":")" + id +
                 R"(","verdict":"retire","reviewerId":"priya","note":"no longer true"})" + "\n";
  }
  const auto whole = Fold(Parts::All());
  const auto rules = Fold({Part::kRules, Part::kEvidence});
  const auto corrections = Fold({Part::kCorrections});
  *history_ = saved;

  auto rules_json = [now](const Learner& l) {
    rapidjson::StringBuffer buffer;
    base::JsonWriter w(buffer);
    w.StartArray();
    w.StartArray();
    for (const learn::LearnedRule& r : l.Rules(now)) learn::WriteJson(w, r);
    w.EndArray();
    learn::WriteJson(w, l.RejectionPatterns(true));
    w.EndArray();
    return std::string(buffer.GetString(), buffer.GetSize());
  };
  bool audited = false;
  for (const learn::LearnedRule& r : whole->Rules(now)) audited |= !r.audits.empty();
  EXPECT_TRUE(audited);
  EXPECT_EQ(rules_json(*rules), rules_json(*whole));
  const std::string corrections_json = render::CorrectionsJson(whole->corrections(), now);
  EXPECT_NE(corrections_json.find("priya"), std::string::npos) << corrections_json;
  EXPECT_EQ(render::CorrectionsJson(corrections->corrections(), now), corrections_json);
}

}  // namespace
}  // namespace kaizen::cli
