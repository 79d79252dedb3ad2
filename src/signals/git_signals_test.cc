#include "signals/git_signals.h"

#include <gtest/gtest.h>

#include "signals/git_test_repo.h"

namespace kaizen::signals {
namespace {

using testing::kAlice;
using testing::kClaude;
using testing::TestRepo;

constexpr int64_t kT0 = 1'700'000'000;  // 2023-11-14, seconds
constexpr int64_t kHour = 3600, kDay = 86400;

const std::string kBase = "one\ntwo\nthree\n";
const std::string kAgentFile = "one\ntwo\nthree\nagent 1\nagent 2\nagent 3\nagent 4\n";

std::vector<GitSignal> Scan(TestRepo& t, const GitScanOptions& options = {}) {
  auto repo = GitRepo::Open(t.dir());
  EXPECT_TRUE(repo.ok()) << repo.status().message();
  auto agents = AgentMatcher::Create(kDefaultAgentPattern);
  auto r = ScanGitHistory(**repo, *agents, options);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? r->signals : std::vector<GitSignal>{};
}

std::vector<GitSignal> Of(const std::vector<GitSignal>& all, GitDetector d) {
  std::vector<GitSignal> out;
  for (const GitSignal& s : all)
    if (s.detector == d) out.push_back(s);
  return out;
}

TEST(GitSignalsTest, RevertByMessageRecordsTheAgentCommitReverted) {
  TestRepo t;
  ASSERT_TRUE(t.ok());
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  std::string revert = t.Commit({agent}, {{"a.txt", kBase}}, kAlice, kT0 + kDay,
                                "Revert \"add\"\n\nThis reverts commit " + agent + ".\n");
  auto all = Scan(t);
  ASSERT_EQ(all.size(), 1u) << "no inverse-diff twin, no human edit for the same revert";
  const GitSignal& s = all[0];
  EXPECT_EQ(s.detector, GitDetector::kRevertMessage);
  EXPECT_EQ(s.shas, (std::vector<std::string>{agent, revert}));
  EXPECT_EQ(s.agent_commit, agent);
  EXPECT_EQ(s.agent, kClaude);
  EXPECT_EQ(s.raw_json, "\"reverted\"");
  EXPECT_EQ(s.observed_ms, (kT0 + kDay) * 1000);
  EXPECT_EQ(s.action_ms, (kT0 + kHour) * 1000);
  EXPECT_EQ(s.confidence, 1.0);
  EXPECT_STREQ(DetectorSignalType(s.detector), "merge_outcome");
}

TEST(GitSignalsTest, RevertByAbbreviatedShaIsFound) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  // Not an exact inverse (a line kept), so only the message can find it.
  t.Commit({agent}, {{"a.txt", kBase + "agent 1\n"}}, kAlice, kT0 + kDay,
           "partly undo\n\nThis reverts commit " + agent.substr(0, 9) + ".\n");
  auto all = Scan(t);
  ASSERT_EQ(Of(all, GitDetector::kRevertMessage).size(), 1u);
  EXPECT_EQ(Of(all, GitDetector::kRevertInverse).size(), 0u);
}

TEST(GitSignalsTest, ExactInverseDiffWithoutMessageIsARevert) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}, {"b.txt", "b\n"}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  std::string other = t.Commit({agent}, {{"b.txt", "b\nc\n"}}, kAlice, kT0 + 2 * kHour, "b");
  std::string undo = t.Commit({other}, {{"a.txt", kBase}}, kAlice, kT0 + 3 * kDay, "cleanup");
  auto all = Scan(t);
  auto reverts = Of(all, GitDetector::kRevertInverse);
  ASSERT_EQ(reverts.size(), 1u);
  EXPECT_EQ(reverts[0].shas, (std::vector<std::string>{agent, undo}));
  EXPECT_EQ(reverts[0].raw_json, "\"reverted\"");
  EXPECT_DOUBLE_EQ(reverts[0].confidence, 0.9);
  EXPECT_EQ(Of(all, GitDetector::kHumanEdit).size(), 0u) << "the undo is a revert, not an edit";
}

TEST(GitSignalsTest, InverseDiffAfterTheRevertWindowIsNotARevert) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  t.Commit({agent}, {{"a.txt", kBase}}, kAlice, kT0 + kHour + 8 * kDay, "cleanup");
  GitScanOptions o;
  EXPECT_EQ(Of(Scan(t, o), GitDetector::kRevertInverse).size(), 0u);
  o.revert_days = 9;
  EXPECT_EQ(Of(Scan(t, o), GitDetector::kRevertInverse).size(), 1u);
}

TEST(GitSignalsTest, HumanRewriteTwoCommitsLaterGivesTheShareOfAgentLines) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}, {"b.txt", "b\n"}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  std::string other = t.Commit({agent}, {{"b.txt", "b\nc\n"}}, kAlice, kT0 + 2 * kHour, "b");
  // One of the agent's 4 lines changed, one of the human's own lines (two) changed too.
  std::string edit =
      t.Commit({other}, {{"a.txt", "one\nTWO\nthree\nagent 1\nagent TWO\nagent 3\nagent 4\n"}},
               kAlice, kT0 + 3 * kHour, "fix");
  auto edits = Of(Scan(t), GitDetector::kHumanEdit);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].shas, (std::vector<std::string>{agent, edit}));
  EXPECT_EQ(edits[0].raw_json, "0.25");
  ASSERT_TRUE(edits[0].signal_value.has_value());
  EXPECT_DOUBLE_EQ(*edits[0].signal_value, 0.75);
  EXPECT_STREQ(DetectorSignalType(edits[0].detector), "human_edit_after_agent");
}

TEST(GitSignalsTest, HumanRewriteBeyondTheCommitWindowIsNotCounted) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}, {"b.txt", "b\n"}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  std::string other = t.Commit({agent}, {{"b.txt", "b\nc\n"}}, kAlice, kT0 + 2 * kHour, "b");
  t.Commit({other}, {{"a.txt", kBase}}, kAlice, kT0 + 30 * kDay, "rewrite");  // 2 commits later
  GitScanOptions o;
  o.rewrite_commits = 1;
  // No rewrite counted: the window closed after one commit, which is a share-0 measurement.
  auto measured = Of(Scan(t, o), GitDetector::kHumanEdit);
  ASSERT_EQ(measured.size(), 1u);
  EXPECT_EQ(measured[0].shas, (std::vector<std::string>{agent}));
  EXPECT_EQ(measured[0].raw_json, "0");
  EXPECT_DOUBLE_EQ(*measured[0].signal_value, 1);
  o.rewrite_commits = 2;
  auto edits = Of(Scan(t, o), GitDetector::kHumanEdit);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].raw_json, "1") << "all 4 agent lines deleted";
  EXPECT_DOUBLE_EQ(*edits[0].signal_value, 0.0);
}

GitScanResult ScanAll(TestRepo& t, const GitScanOptions& options = {}) {
  auto repo = GitRepo::Open(t.dir());
  EXPECT_TRUE(repo.ok()) << repo.status().message();
  auto agents = AgentMatcher::Create(kDefaultAgentPattern);
  auto r = ScanGitHistory(**repo, *agents, options);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : GitScanResult{};
}

TEST(GitSignalsTest, EachRunOfAgentLinesAPersonReplacedIsACorrection) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  std::string human = t.Commit({agent}, {{"a.txt", "one\ntwo\nthree\nagent 1\nAGENT 2\nagent 3\n"}},
                               kAlice, kT0 + 2 * kHour, "fix");
  const GitScanResult r = ScanAll(t);
  ASSERT_EQ(r.corrections.size(), 2u);
  const GitCorrection& renamed = r.corrections[0];
  EXPECT_EQ((std::vector<std::string>{renamed.agent_commit, renamed.human_commit}),
            (std::vector<std::string>{agent, human}));
  EXPECT_EQ(renamed.path, "a.txt");
  EXPECT_EQ((std::pair{renamed.line_start, renamed.line_end}), (std::pair<size_t, size_t>{5, 5}));
  EXPECT_EQ(renamed.original, "agent 2");
  EXPECT_EQ(renamed.corrected, "AGENT 2");
  EXPECT_EQ(renamed.human, kAlice);
  // The last line deleted: a correction to nothing.
  EXPECT_EQ(r.corrections[1].original, "agent 4");
  EXPECT_EQ(r.corrections[1].corrected, "");
}

TEST(GitSignalsTest, AReindentIsNoCorrection) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  t.Commit({agent}, {{"a.txt", "one\ntwo\nthree\n  agent 1\nagent 2\nagent 3\nagent 4\n"}}, kAlice,
           kT0 + 2 * kHour, "indent");
  EXPECT_TRUE(ScanAll(t).corrections.empty());
}

TEST(GitSignalsTest, AgentEditingAgentLinesIsNoHumanEdit) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string agent = t.Commit({base}, {{"a.txt", kAgentFile}}, kClaude, kT0 + kHour, "add");
  t.Commit({agent}, {{"a.txt", kBase + "agent 1\n"}}, kClaude, kT0 + 2 * kHour, "trim");
  EXPECT_EQ(Of(Scan(t), GitDetector::kHumanEdit).size(), 0u);
}

// main: base -> m1 (merge of feature1: 2 agent commits, 2 h) -> m2 (merge of feature2: 1 agent
// commit, 4 h).
struct MergedHistory {
  std::string base, f1a, f1b, m1, f2a, m2;
};

MergedHistory BuildMerges(TestRepo& t) {
  MergedHistory h;
  h.base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  h.f1a = t.Commit({h.base}, {{"f1.txt", "x\n"}}, kClaude, kT0 + kHour, "f1 a", "refs/heads/f1");
  h.f1b =
      t.Commit({h.f1a}, {{"f1.txt", "x\ny\n"}}, kClaude, kT0 + 2 * kHour, "f1 b", "refs/heads/f1");
  h.m1 = t.Commit({h.base, h.f1b}, {{"f1.txt", "x\ny\n"}}, kAlice, kT0 + 3 * kHour,
                  "Merge branch 'f1'");
  h.f2a = t.Commit({h.m1}, {{"f2.txt", "z\n"}}, kClaude, kT0 + 4 * kHour, "f2", "refs/heads/f2");
  h.m2 = t.Commit({h.m1, h.f2a}, {{"f2.txt", "z\n"}}, kAlice, kT0 + 8 * kHour, "Merge branch 'f2'");
  return h;
}

TEST(GitSignalsTest, MergeOfAnAgentBranchGivesMergeIterationsAndTime) {
  TestRepo t;
  MergedHistory h = BuildMerges(t);
  auto all = Scan(t);
  auto merges = Of(all, GitDetector::kMerge);
  ASSERT_EQ(merges.size(), 2u);
  EXPECT_EQ(merges[0].shas, std::vector<std::string>{h.m1});
  EXPECT_EQ(merges[0].agent_commit, h.f1b) << "the agent tip the merge brought in";
  EXPECT_EQ(merges[0].raw_json, "\"merged\"");
  auto iterations = Of(all, GitDetector::kIterationCount);
  ASSERT_EQ(iterations.size(), 2u);
  EXPECT_EQ(iterations[0].raw_json, "2");
  EXPECT_EQ(iterations[1].raw_json, "1");
  // The first merge has no earlier merge to be a baseline; the second is measured against it.
  auto times = Of(all, GitDetector::kTimeToCompletion);
  ASSERT_EQ(times.size(), 1u);
  EXPECT_EQ(times[0].shas, std::vector<std::string>{h.m2});
  EXPECT_EQ(times[0].raw_json, "14400");
  EXPECT_EQ(times[0].baseline_seconds, 7200);
}

TEST(GitSignalsTest, RevertOfAMergeRevertsTheAgentWorkItBroughtIn) {
  TestRepo t;
  MergedHistory h = BuildMerges(t);
  t.Commit({h.m2}, {{"f2.txt", std::nullopt}}, kAlice, kT0 + 9 * kHour,
           "Revert \"Merge branch 'f2'\"\n\nThis reverts commit " + h.m2 + ", reversing\n");
  auto reverts = Of(Scan(t), GitDetector::kRevertMessage);
  ASSERT_EQ(reverts.size(), 1u);
  EXPECT_EQ(reverts[0].agent_commit, h.f2a);
  EXPECT_EQ(reverts[0].shas[0], h.m2);
}

TEST(GitSignalsTest, SinceDropsSignalsObservedBefore) {
  TestRepo t;
  BuildMerges(t);
  GitScanOptions o;
  o.since_ms = (kT0 + 5 * kHour) * 1000;
  auto all = Scan(t, o);
  ASSERT_FALSE(all.empty());
  for (const GitSignal& s : all) EXPECT_GE(s.observed_ms, o.since_ms);
  EXPECT_EQ(Of(all, GitDetector::kMerge).size(), 1u);
  EXPECT_EQ(Of(all, GitDetector::kTimeToCompletion).size(), 1u)
      << "the baseline still comes from the merge before --since";
}

TEST(GitSignalsTest, HumanOnlyHistoryHasNoSignals) {
  TestRepo t;
  std::string base = t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  std::string b = t.Commit({base}, {{"a.txt", kAgentFile}}, kAlice, kT0 + kHour, "add");
  t.Commit({b}, {{"a.txt", kBase}}, kAlice, kT0 + 2 * kHour, "This reverts commit " + b);
  EXPECT_TRUE(Scan(t).empty());
}

TEST(GitSignalsTest, NotARepositoryIsInvalidArgumentNamingThePath) {
  std::string dir = base::test_files::MakeTempDir("kaizen-norepo");
  auto repo = GitRepo::Open(dir);
  ASSERT_FALSE(repo.ok());
  EXPECT_EQ(repo.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(repo.status().message().find("REPO \"" + dir + "\" is not a git repository"),
            std::string::npos)
      << repo.status().message();
  std::filesystem::remove_all(dir);
}

TEST(GitSignalsTest, UnknownBranchIsInvalidArgumentNamingTheFlag) {
  TestRepo t;
  t.Commit({}, {{"a.txt", kBase}}, kAlice, kT0, "base");
  auto repo = GitRepo::Open(t.dir());
  ASSERT_TRUE(repo.ok());
  GitScanOptions o;
  o.branch = "no-such-branch";
  auto agents = AgentMatcher::Create(kDefaultAgentPattern);
  auto r = ScanGitHistory(**repo, *agents, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("--branch \"no-such-branch\""), std::string::npos);
}

}  // namespace
}  // namespace kaizen::signals
