// Learner::SaveState / LoadState: a learner that folded part of a log, saved, loaded into a new
// one and fed the rest answers every query as one that folded the whole log.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/test_files.h"
#include "checks/self_check_run.h"
#include "ingest/ingestor.h"
#include "learn/learner.h"
#include "learn/reviews/review_queue.h"
#include "render/context.h"
#include "render/hints.h"
#include "render/render_all.h"
#include "sim/gen_history.h"
#include "store/file_system.h"

namespace kaizen::sim {
namespace {

// A generated history of every kind gen writes, and `prompt` events (which gen does not) among
// them, each at the time of the line before it.
std::vector<std::string> History() {
  sim::GenOptions options;
  options.events = 3000;
  options.seed = 11;
  std::string text;
  sim::GenerateHistory(options, &text);
  std::vector<std::string> lines;
  const char* judgements[] = {"correction", "instruction", "positive", "none"};
  const char* themes[] = {"error-handling", "testing", "naming", "documentation"};
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
    if (lines.size() % 97 != 0) continue;
    const size_t at = lines.back().find("\"timestamp\":\"") + 13;
    const std::string timestamp = lines.back().substr(at, 24);
    const size_t n = lines.size() / 97;
    lines.push_back(
        R"({"kind":"prompt","id":"0197c348-8800-7c04-bedd-)" + std::to_string(100000000000 + n) +
        R"(","timestamp":")" + timestamp + R"(","session_id":"agent-)" + std::to_string(n % 5) +
        R"(","text":"no, handle the errors","agent":"claude-code","project":"kaizen",)" +
        R"("_judgement":")" + judgements[n % 4] + R"(","_instruction":"use pnpm )" +
        std::to_string(n % 3) + R"(","_extractedThemes":[")" + themes[n % 4] +
        R"("],"_sentiment":-0.5})");
  }
  return lines;
}

const std::vector<std::string>& Lines() {
  static const std::vector<std::string> lines = History();
  return lines;
}

void Fold(learn::Learner& learner, const std::vector<std::string>& lines, size_t from, size_t to) {
  learn::EventReader reader;
  learn::EventViews views;
  for (size_t i = from; i < to; ++i) {
    ASSERT_TRUE(reader.ReadJson(lines[i], &views)) << lines[i];
    learner.Add(views);
  }
}

void Fold(learn::Learner& learner, size_t from, size_t to) { Fold(learner, Lines(), from, to); }

// One developer's week in their own words (tests/integration/fixtures/developer_week.jsonl: 26
// reviews, 10 corrections, outcomes, CI results, ratings), stored by the real ingest pipeline so
// the lines carry what ingest adds (ids, themes, sentiment), in log order.
std::vector<std::string> DeveloperWeek() {
  const std::string home = base::test_files::MakeTempDir("kaizen-learner-state-week");
  std::ifstream in(std::string(KAIZEN_SOURCE_DIR) +
                   "/tests/integration/fixtures/developer_week.jsonl");
  std::stringstream text;
  text << in.rdbuf();
  ingest::Ingestor ingestor(home, store::DefaultFileSystem());
  ingest::IngestOptions options;
  options.now_ms = 1765789200000;  // 2025-12-15T09:00:00Z, the Monday after the week
  ingest::IngestSummary summary;
  const simdjson::padded_string input(text.str());
  EXPECT_TRUE(ingestor.Ingest(std::string_view(input), options, &summary).ok());
  EXPECT_EQ(summary.rejected, 0u);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(home + "/feedback/raw"))
    files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<std::string> lines;
  for (const std::string& file : files) {
    std::ifstream raw(file);
    for (std::string line; std::getline(raw, line);) lines.push_back(line);
  }
  std::filesystem::remove_all(home);
  return lines;
}

std::string Json(const auto& value) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, value);
  return buffer.GetString();
}

// Every answer the doors give of a learner at `now`, as text.
std::vector<std::string> Answers(const learn::Learner& learner, int64_t now) {
  std::vector<std::string> out;
  out.push_back(learner.AnalysisJson(now, learn::Sections::All()));
  out.push_back(learner.AnalysisText(now, learn::Sections::All()));
  out.push_back(learner.KpisJson(now, 7, 4, 7));
  for (const learn::LearnedRule& r : learner.Rules(now)) out.push_back(Json(r));
  out.push_back(Json(learner.RejectionPatterns(true)));
  out.push_back(Json(learner.RejectionPatterns(false)));
  for (const learn::CorrectionPattern& p : learner.corrections().Patterns()) out.push_back(Json(p));
  for (const learn::ReviewerProfile& p : learner.profiles().Result()) out.push_back(Json(p));
  out.push_back(render::HintsSection(render::HintsInputFrom(learner, now, "")));
  for (const render::RenderedFile& f : render::RenderAll(learner, now)) {
    out.push_back(f.path + "\n" + f.content);
  }
  for (render::ContextQuery query :
       {render::ContextQuery{}, render::ContextQuery{"shopify", "mcp-server", "review", {}},
        render::ContextQuery{"stripe", "", "implement", {"error-handling", "security"}}}) {
    render::ContextResult context = render::Context(learner, query, now);
    out.push_back(render::ContextMarkdown(context));
    out.push_back(render::ContextJson(context));
  }
  // The self-check, with the review history the learner folded (`kaizen check`, the stop hook).
  const std::vector<checks::CheckedFile> files = {
      {"src/api/users.ts", "users.ts",
       "export async function getUser(id: any) { const res = await fetch(url); return res; }\n"}};
  for (const char* task : {"ts-api", "shopify", "stripe", "github", ""}) {
    const learn::SelfCheckResult r =
        checks::SelfCheckFiles(learner, learner.review_history(), now, task, {}, files,
                               learn::SelfCheckConfig{}, "id", "v");
    out.push_back(checks::SelfCheckJson(r, learner.AdviseComparison({task, r.raw_confidence, 1}),
                                        files, {}, "id", "v", false, "", ""));
  }
  for (const learn::RankedItem& r :
       OrderQueue(learner.queue(), learner.autonomy(), {"morning", {}})) {
    out.push_back(std::string(r.item->artifact_id) + " " + std::string(r.item->version) + " " +
                  std::string(r.item->event_id) + " " + std::string(r.item->path) + " " +
                  std::string(r.item->session_id) + " " + std::string(r.item->summary) + " " +
                  std::to_string(r.item->deferrals) + " " + r.why);
  }
  // Explain: a few names of each kind the log has, and one it has not.
  std::vector<std::pair<std::string, std::string>> names = {
      {"gate", "error-handling"}, {"gate", "security"},   {"calibration", "all"},
      {"calibration", "0.7"},     {"pattern", "no-such"}, {"loop", "no-such"}};
  for (const learn::PatternResult& p : learner.outcomes().Patterns(now)) {
    if (names.size() < 9) names.emplace_back("pattern", p.content);
  }
  for (const learn::CriterionResult& c : learner.outcomes().Criteria(now)) {
    if (names.size() < 12) names.emplace_back("criterion", c.criterion);
  }
  for (const learn::TaskAutonomy& t : learner.autonomy().Result())
    names.emplace_back("autonomy", t.task_type);
  for (const learn::LoopReport& l : learner.loops().Result().recent) {
    if (names.size() < 24) names.emplace_back("loop", l.loop_id);
  }
  for (const auto& [what, name] : names) {
    std::string text;
    Status s = learner.Explain(what, name, now, &text);
    out.push_back(what + " " + name + ": " + s.ToString() + "\n" + text);
  }
  return out;
}

void ExpectSameAnswers(const learn::Learner& resumed, const learn::Learner& whole, size_t k) {
  for (int64_t now : {whole.newest_ms(), whole.newest_ms() + 40 * model::kMsPerDay}) {
    const std::vector<std::string> a = Answers(resumed, now), b = Answers(whole, now);
    ASSERT_EQ(a.size(), b.size()) << "k = " << k;
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i], b[i]) << "k = " << k << ", answer " << i;
    }
  }
  EXPECT_TRUE(resumed.SaveState() == whole.SaveState()) << "k = " << k;
}

// The first work event whose product a later feedback reviews: its review comes after the
// checkpoint, through the loaded registry and review queue.
size_t AfterWorkReviewedLater() {
  const std::vector<std::string>& lines = Lines();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(R"({"kind":"work")", 0) != 0) continue;
    const size_t at = lines[i].find(R"("id":")", lines[i].find("workProduct")) + 6;
    const std::string ref =
        R"("workProduct":{"id":")" + lines[i].substr(at, lines[i].find('"', at) - at) + '"';
    for (size_t j = i + 2; j < lines.size(); ++j) {
      if (lines[j].find(ref) != std::string::npos) return i + 1;
    }
  }
  return 0;
}

TEST(LearnerState, HistoryHasEveryKind) {
  learn::Learner whole{learn::LearnConfig()};
  Fold(whole, 0, Lines().size());
  const std::string json = whole.AnalysisJson(whole.newest_ms());
  for (std::string_view kind : {"feedback", "work", "outcome", "error", "reward", "correction",
                                "loop", "admin", "prompt"}) {
    const size_t at = json.find("\"" + std::string(kind) + "\":");
    ASSERT_NE(at, std::string::npos) << kind;
    EXPECT_NE(json[at + kind.size() + 3], '0') << kind;
  }
  EXPECT_FALSE(whole.session_prompts().Told(10, "").empty());
  EXPECT_GT(whole.queue().size(), 0u);
  EXPECT_GT(AfterWorkReviewedLater(), 0u);
}

TEST(LearnerState, ResumedFoldGivesWhatTheWholeFoldGives) {
  const size_t n = Lines().size();
  learn::Learner whole{learn::LearnConfig()};
  Fold(whole, 0, n);
  for (size_t k :
       {size_t{0}, size_t{1}, size_t{2}, n / 3, n / 2, AfterWorkReviewedLater(), n - 1, n}) {
    learn::Learner first{learn::LearnConfig()};
    Fold(first, 0, k);
    learn::Learner resumed{learn::LearnConfig()};
    ASSERT_TRUE(resumed.LoadState(first.SaveState()).ok()) << "k = " << k;
    EXPECT_EQ(resumed.events(), k);
    Fold(resumed, k, n);
    ExpectSameAnswers(resumed, whole, k);
  }
}

TEST(LearnerState, ADevelopersWeekResumedAfterAnyEventAnswersAsTheWholeWeek) {
  const std::vector<std::string> week = DeveloperWeek();
  ASSERT_GT(week.size(), 70u);
  const size_t n = week.size();
  learn::Learner whole{learn::LearnConfig()};
  Fold(whole, week, 0, n);
  ASSERT_FALSE(whole.Rules(whole.newest_ms()).empty());  // the week teaches something
  for (size_t k = 0; k <= n; ++k) {
    learn::Learner first{learn::LearnConfig()};
    Fold(first, week, 0, k);
    learn::Learner resumed{learn::LearnConfig()};
    ASSERT_TRUE(resumed.LoadState(first.SaveState()).ok()) << "k = " << k;
    Fold(resumed, week, k, n);
    ExpectSameAnswers(resumed, whole, k);
  }
}

TEST(LearnerState, CheckpointsInAChainGiveWhatTheWholeFoldGives) {
  const size_t n = Lines().size();
  learn::Learner whole{learn::LearnConfig()};
  Fold(whole, 0, n);
  auto learner = std::make_unique<learn::Learner>(learn::LearnConfig());
  for (size_t k = 0; k < n; k += 400) {
    Fold(*learner, k, std::min(n, k + 400));
    auto next = std::make_unique<learn::Learner>(learn::LearnConfig());
    ASSERT_TRUE(next->LoadState(learner->SaveState()).ok()) << "k = " << k;
    learner = std::move(next);
  }
  ExpectSameAnswers(*learner, whole, n);
}

TEST(LearnerState, SaveLoadSaveGivesTheSameBytes) {
  learn::Learner a{learn::LearnConfig()};
  Fold(a, 0, Lines().size() / 2);
  const std::string saved = a.SaveState();
  EXPECT_EQ(saved, a.SaveState());
  learn::Learner b{learn::LearnConfig()};
  ASSERT_TRUE(b.LoadState(saved).ok());
  EXPECT_EQ(b.SaveState(), saved);
  learn::Learner c{learn::LearnConfig()};
  ASSERT_TRUE(c.LoadState(b.SaveState()).ok());
  EXPECT_EQ(c.SaveState(), saved);
}

TEST(LearnerState, PartialLearnerRoundTrips) {
  const learn::Parts parts = render::kHintsParts;
  const size_t n = Lines().size();
  learn::Learner whole{learn::LearnConfig(), nullptr, parts};
  Fold(whole, 0, n);
  learn::Learner first{learn::LearnConfig(), nullptr, parts};
  Fold(first, 0, n / 2);
  learn::Learner resumed{learn::LearnConfig(), nullptr, parts};
  ASSERT_TRUE(resumed.LoadState(first.SaveState()).ok());
  Fold(resumed, n / 2, n);
  const int64_t now = whole.newest_ms();
  EXPECT_EQ(render::HintsSection(render::HintsInputFrom(resumed, now, "")),
            render::HintsSection(render::HintsInputFrom(whole, now, "")));
  EXPECT_TRUE(resumed.SaveState() == whole.SaveState());
}

class DamagedState : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    learn::Learner learner{learn::LearnConfig()};
    Fold(learner, 0, Lines().size());
    saved_ = new std::string(learner.SaveState());
  }
  static void TearDownTestSuite() { delete saved_; }
  static Status Load(std::string_view bytes) {
    learn::Learner learner{learn::LearnConfig()};
    return learner.LoadState(bytes);
  }
  // `bytes` with its header's size and checksum made to match its payload again.
  static std::string Resealed(std::string bytes) {
    using namespace learn::state_format;
    const uint64_t size = bytes.size() - kHeaderBytes;
    std::memcpy(bytes.data() + kPayloadSizeAt, &size, 8);
    const std::string_view view(bytes);
    const uint64_t sum = Checksum(view.substr(0, kChecksumAt), view.substr(kHeaderBytes));
    std::memcpy(bytes.data() + kChecksumAt, &sum, 8);
    return bytes;
  }
  static std::string* saved_;
};
std::string* DamagedState::saved_ = nullptr;

TEST_F(DamagedState, TheUndamagedBytesLoad) { EXPECT_TRUE(Load(*saved_).ok()); }

TEST_F(DamagedState, TruncatedBytesAreDataLoss) {
  const std::string& s = *saved_;
  for (size_t size = 0; size < s.size(); size += size < 64 ? 1 : s.size() / 97) {
    const Status status = Load(std::string_view(s).substr(0, size));
    EXPECT_EQ(status.code(), StatusCode::kDataLoss) << size << ": " << status.ToString();
  }
}

TEST_F(DamagedState, TruncatedPayloadUnderAValidChecksumIsDataLoss) {
  const std::string& s = *saved_;
  for (size_t size = learn::state_format::kHeaderBytes; size < s.size(); size += s.size() / 31) {
    const Status status = Load(Resealed(s.substr(0, size)));
    EXPECT_EQ(status.code(), StatusCode::kDataLoss) << size;
    EXPECT_NE(status.message().find("damaged payload"), std::string::npos) << status.message();
  }
}

TEST_F(DamagedState, TrailingBytesAreDataLoss) {
  const Status status = Load(Resealed(*saved_ + "xyz"));
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("3 bytes left"), std::string::npos) << status.message();
}

TEST_F(DamagedState, FlippedBitIsDataLoss) {
  const std::string& s = *saved_;
  for (size_t at = 0; at < s.size(); at += at < 64 ? 1 : s.size() / 211) {
    if (at >= learn::state_format::kVersionAt && at < learn::state_format::kVersionAt + 4) continue;
    std::string damaged = s;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    const Status status = Load(damaged);
    EXPECT_EQ(status.code(), StatusCode::kDataLoss) << at << ": " << status.ToString();
  }
}

TEST_F(DamagedState, OtherVersionIsRefused) {
  std::string other = *saved_;
  const uint32_t version = learn::kLearnerStateVersion + 1;
  std::memcpy(other.data() + learn::state_format::kVersionAt, &version, 4);
  const Status status = Load(other);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("format version " + std::to_string(version)), std::string::npos)
      << status.message();
}

TEST_F(DamagedState, OtherPartsAreRefused) {
  learn::Learner learner{learn::LearnConfig(), nullptr, render::kHintsParts};
  const Status status = learner.LoadState(*saved_);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("parts"), std::string::npos) << status.message();
}

TEST_F(DamagedState, OtherConfigIsRefused) {
  learn::LearnConfig config;
  config.gates.hard = 0.9;
  learn::Learner learner{config};
  const Status status = learner.LoadState(*saved_);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("config"), std::string::npos) << status.message();
}

TEST_F(DamagedState, LearnerThatFoldedEventsIsRefused) {
  learn::Learner learner{learn::LearnConfig()};
  Fold(learner, 0, 1);
  const Status status = learner.LoadState(*saved_);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("folded 1 events"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace kaizen::sim
