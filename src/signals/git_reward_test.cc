#include "signals/git_reward.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include "model/timestamp.h"

namespace kaizen::signals {
namespace {

GitSignal Revert() {
  GitSignal s;
  s.detector = GitDetector::kRevertMessage;
  s.shas = {std::string(40, 'a'), std::string(40, 'b')};
  s.agent_commit = s.shas[0];
  s.agent = "Claude <noreply@anthropic.com>";
  s.observed_ms = 1'700'000'000'000 + 3 * 86'400'000;
  s.action_ms = 1'700'000'000'000;
  s.raw_json = "\"reverted\"";
  return s;
}

TEST(GitRewardTest, SameSignalSameIdDifferentCommitsDifferentId) {
  GitSignal a = Revert(), b = Revert();
  EXPECT_EQ(GitSignalUuid(a), GitSignalUuid(b));
  b.shas[1] = std::string(40, 'c');
  EXPECT_NE(GitSignalUuid(a), GitSignalUuid(b));
  GitSignal c = Revert();
  c.detector = GitDetector::kRevertInverse;
  EXPECT_NE(GitSignalUuid(a), GitSignalUuid(c)) << "the detector is part of the identity";
}

TEST(GitRewardTest, IdIsAVersion7UuidOnTheObservedTime) {
  model::Uuid id = GitSignalUuid(Revert());
  int64_t ms = 0;
  for (int i = 0; i < 6; ++i) ms = (ms << 8) | id.bytes[static_cast<size_t>(i)];
  EXPECT_EQ(ms, Revert().observed_ms);
  EXPECT_EQ(id.bytes[6] >> 4, 7);
  EXPECT_EQ(id.bytes[8] >> 6, 2);  // RFC 9562 variant
}

TEST(GitRewardTest, EventCarriesTheRewardFields) {
  std::string json = GitRewardEvent(Revert(), "shop");
  simdjson::dom::parser parser;
  simdjson::dom::element e = parser.parse(json);
  EXPECT_EQ(std::string_view(e["kind"]), "reward");
  EXPECT_EQ(std::string_view(e["id"]), GitSignalUuid(Revert()).ToString());
  EXPECT_EQ(std::string_view(e["timestamp"]), model::FormatUtc(Revert().observed_ms));
  EXPECT_EQ(std::string_view(e["signal_type"]), "merge_outcome");
  EXPECT_EQ(std::string_view(e["raw_value"]), "reverted");
  EXPECT_EQ(std::string_view(e["commit_hash"]), std::string(40, 'a'));
  EXPECT_EQ(std::string_view(e["signal_id"]), "git:revert:aaaaaaaaaaaa:bbbbbbbbbbbb");
  EXPECT_EQ(std::string_view(e["source"]), "automatic");
  EXPECT_EQ(int64_t(e["delay_days"]), 3);
  EXPECT_EQ(e["signal_value"].error(), simdjson::NO_SUCH_FIELD)
      << "merge_outcome is normalized by ingest from raw_value";
  EXPECT_EQ(e["task_id"].error(), simdjson::NO_SUCH_FIELD);
}

TEST(GitRewardTest, HumanEditGivesItsOwnSignalValue) {
  GitSignal s = Revert();
  s.detector = GitDetector::kHumanEdit;
  s.raw_json = "0.25";
  s.signal_value = 0.75;
  s.confidence = 0.8;
  simdjson::dom::parser parser;
  simdjson::dom::element e = parser.parse(GitRewardEvent(s, "shop"));
  EXPECT_EQ(std::string_view(e["signal_type"]), "human_edit_after_agent");
  EXPECT_DOUBLE_EQ(double(e["raw_value"]), 0.25);
  EXPECT_DOUBLE_EQ(double(e["signal_value"]), 0.75);
  EXPECT_DOUBLE_EQ(double(e["confidence"]), 0.8);
}

TEST(GitRewardTest, ContextNamesRepoDetectorCommitsAndAgent) {
  simdjson::dom::parser parser;
  simdjson::dom::element ctx = parser.parse(GitRewardEvent(Revert(), "shop"))["context"];
  EXPECT_EQ(std::string_view(ctx["source"]), "git");
  EXPECT_EQ(std::string_view(ctx["repo"]), "shop");
  EXPECT_EQ(std::string_view(ctx["detector"]), "revert");
  simdjson::dom::array commits = ctx["commits"];
  ASSERT_EQ(commits.size(), 2u);
  EXPECT_EQ(std::string_view(commits.at(0)), std::string(40, 'a'));
  EXPECT_EQ(std::string_view(commits.at(1)), std::string(40, 'b'));
  EXPECT_EQ(std::string_view(ctx["agent"]), "Claude");
  EXPECT_EQ(std::string_view(ctx["agent_email"]), "noreply@anthropic.com");
}

TEST(GitRewardTest, LabelDependsOnlyOnDetectorAndCommits) {
  GitSignal a = Revert(), b = Revert();
  b.agent = "Someone Else <x@y>";
  b.observed_ms += 1000;
  EXPECT_EQ(GitSignalLabel(a), GitSignalLabel(b)) << "stable across scans and agent patterns";
  b.shas[1] = std::string(40, 'c');
  EXPECT_NE(GitSignalLabel(a), GitSignalLabel(b));
}

TEST(GitRewardTest, ContextStringsAreCappedAndValidUtf8) {
  GitSignal s = Revert();
  s.agent = std::string(300, 'x') + "\xff\x01 <a@b>";
  simdjson::dom::parser parser;
  auto doc = parser.parse(GitRewardEvent(s, "repo\xc3"));
  ASSERT_FALSE(doc.error()) << "the event is valid JSON with valid UTF-8";
  simdjson::dom::element ctx = doc["context"];
  std::string_view agent = ctx["agent"], repo = ctx["repo"];
  EXPECT_LE(agent.size(), 256u);
  EXPECT_EQ(agent.find('\x01'), std::string_view::npos);
  EXPECT_EQ(agent.find('\xff'), std::string_view::npos);
  EXPECT_EQ(repo, "repo?") << "a cut-off sequence is replaced";
  EXPECT_EQ(std::string_view(ctx["agent_email"]), "a@b");
}

// Found by fuzz/git_commit_text_fuzz.cc (L5b): a commit author written in CESU-8 or with overlong
// forms passed the old byte-pattern check, and the event it made was refused by ingest (simdjson
// reads strict UTF-8).
TEST(GitRewardTest, SurrogatesOverlongFormsAndOutOfRangeBytesBecomeQuestionMarks) {
  GitSignal s = Revert();
  s.agent =
      "\xed\xa0\x80x\xc0\xaf\xe0\x80\x80\xf4\x90\x80\x80 Jos\xc3\xa9 \xe2\x82\xac <e\xed\xbf\xbf>";
  simdjson::dom::parser parser;
  auto doc = parser.parse(GitRewardEvent(s, "r\xf5\x80\x80\x80"));
  ASSERT_FALSE(doc.error()) << "the event is JSON in strict UTF-8";
  simdjson::dom::element ctx = doc["context"];
  EXPECT_EQ(std::string_view(ctx["agent"]), "???x????????? Jos\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(std::string_view(ctx["agent_email"]), "e???");
  EXPECT_EQ(std::string_view(ctx["repo"]), "r????");
}

}  // namespace
}  // namespace kaizen::signals
