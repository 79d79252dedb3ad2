#include "signals/github_events.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <fstream>
#include <sstream>

#include "ingest/validate.h"

namespace kaizen::signals {
namespace {

// The octokit/webhooks examples GitHub's docs show (tests/integration/fixtures/github/SOURCE.md):
// pull request #2 of Codertocat/Hello-World, by Codertocat, head ec26c3e5.
std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(KAIZEN_SOURCE_DIR) + "/tests/integration/fixtures/github/" + name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

constexpr std::string_view kSha = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";

// `json` with the values at JSON pointers replaced (each value is JSON text).
std::string Edit(const std::string& json,
                 std::initializer_list<std::pair<const char*, const char*>> edits) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_FALSE(doc.HasParseError());
  for (const auto& [pointer, value] : edits) {
    rapidjson::Document v(&doc.GetAllocator());
    v.Parse(value);
    rapidjson::Pointer(pointer).Set(doc, rapidjson::Value(v, doc.GetAllocator()));
  }
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  doc.Accept(w);
  return b.GetString();
}

// The same pull request, by an agent: its branch is `copilot/changes` (Copilot's naming).
std::string AgentPr(const std::string& fixture) {
  return Edit(Fixture(fixture), {{"/pull_request/head/ref", "\"copilot/changes\""}});
}

const AgentMatcher& Agents() {
  static const AgentMatcher m = AgentMatcher::Create(kDefaultAgentPattern).value();
  return m;
}

GithubMapping Map(const std::string& payload, std::string_view event, std::string_view repo = {},
                  std::optional<uint64_t> pr = std::nullopt) {
  auto m = MapGithubPayload(payload, GithubSource{event, repo, pr}, Agents());
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : GithubMapping{};
}

// Each event as the validator reads it: every line must pass the schema as it stands.
struct Parsed {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  explicit Parsed(const GithubEvent& ev) {
    EXPECT_EQ(parser.parse(ev.json).get(e), simdjson::SUCCESS) << ev.json;
    ingest::ValidateOptions o;
    o.now_ms = 253402300799999;  // 9999-12-31: the clock is ingest's concern, not the mapping's
    ingest::EventFacts facts;
    for (const auto& err : ingest::ValidateEvent(e, o, &facts)) {
      ADD_FAILURE() << ev.json << "\n" << err.ToString();
    }
    EXPECT_EQ(std::string(facts.id->ToString()), ev.id);
  }
  std::string_view S(const char* pointer) {
    std::string_view s;
    EXPECT_EQ(e.at_pointer(pointer).get_string().get(s), simdjson::SUCCESS) << pointer;
    return s;
  }
  bool Has(const char* pointer) { return e.at_pointer(pointer).error() == simdjson::SUCCESS; }
  int64_t I(const char* pointer) {
    int64_t v = -1;
    EXPECT_EQ(e.at_pointer(pointer).get_int64().get(v), simdjson::SUCCESS) << pointer;
    return v;
  }
};

TEST(GithubEvents, PullRequestOpenedByAPersonMapsToNothingAndSaysWhy) {
  GithubMapping m = Map(Fixture("pull_request_opened.json"), kGithubPullRequest);
  EXPECT_TRUE(m.events.empty());
  ASSERT_EQ(m.ignored.size(), 1u);
  EXPECT_NE(m.ignored[0].find("Codertocat's, not an agent's"), std::string::npos) << m.ignored[0];
}

TEST(GithubEvents, AgentPullRequestOpenedIsWorkAtItsHeadSha) {
  GithubMapping m = Map(AgentPr("pull_request_opened.json"), kGithubPullRequest);
  ASSERT_EQ(m.events.size(), 1u);
  ASSERT_EQ(m.events[0].kind, model::EventKind::kWork);
  Parsed p(m.events[0]);
  EXPECT_EQ(p.S("/workProduct/id"), "github:Codertocat/Hello-World#2");
  EXPECT_EQ(p.S("/workProduct/version"), kSha);
  EXPECT_EQ(p.S("/workProduct/type"), "code-module");
  EXPECT_EQ(p.S("/repository"), "Codertocat/Hello-World");
  EXPECT_EQ(p.S("/timestamp"), "2019-05-15T15:20:33.000Z");  // created_at
  const std::string_view summary = p.S("/workProduct/summary");
  EXPECT_EQ(summary.substr(0, 39), "Update the README with new information.");
  EXPECT_NE(summary.find("https://github.com/Codertocat/Hello-World/pull/2"), std::string::npos);
  // The change a review shows: the branch from its merge base with base.sha, to the head.
  EXPECT_EQ(p.S("/workProduct/commit"),
            "f95f852bd8fca8fcc58a9a2d6c842781e32a215e..." + std::string(kSha));
}

TEST(GithubEvents, AgentIsFoundByLoginBranchPrefixOrCoAuthorTrailerButNotInsideABranchName) {
  const std::string opened = Fixture("pull_request_opened.json");
  auto events = [&](std::initializer_list<std::pair<const char*, const char*>> e) {
    return Map(Edit(opened, e), kGithubPullRequest).events.size();
  };
  EXPECT_EQ(events({{"/pull_request/user/login", "\"copilot-swe-agent[bot]\""}}), 1u);
  EXPECT_EQ(events({{"/pull_request/head/ref", "\"claude/issue-7\""}}), 1u);
  EXPECT_EQ(events({{"/pull_request/body",
                     "\"Fixes #1\\n\\nCo-authored-by: Claude "
                     "<noreply@anthropic.com>\""}}),
            1u);
  EXPECT_EQ(events({{"/pull_request/head/ref", "\"fix-cursor-position\""}}), 0u);
  EXPECT_EQ(events({{"/pull_request/head/ref", "\"people/copilot-notes\""}}), 0u);
}

TEST(GithubEvents, ReplayedDeliveryGivesTheSameIds) {
  const std::string payload = AgentPr("pull_request_opened.json");
  GithubMapping a = Map(payload, kGithubPullRequest), b = Map(payload, kGithubPullRequest);
  ASSERT_EQ(a.events.size(), 1u);
  EXPECT_EQ(a.events[0].id, b.events[0].id);
  EXPECT_EQ(a.events[0].json, b.events[0].json);
}

TEST(GithubEvents, SynchronizeIsANewVersionWithANewId) {
  const std::string payload = AgentPr("pull_request_opened.json");
  GithubMapping a = Map(payload, kGithubPullRequest);
  GithubMapping b = Map(Edit(payload, {{"/action", "\"synchronize\""},
                                       {"/pull_request/head/sha", "\"0123456789abcdef\""}}),
                        kGithubPullRequest);
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_NE(a.events[0].id, b.events[0].id);
  Parsed p(b.events[0]);
  EXPECT_EQ(p.S("/workProduct/version"), "0123456789abcdef");
  EXPECT_EQ(p.S("/timestamp"), "2019-05-15T15:20:33.000Z");  // updated_at: the push
}

TEST(GithubEvents, ApprovedReviewIsAnApprovalOfThePullRequestsWork) {
  GithubMapping m = Map(Edit(AgentPr("pull_request_review_submitted.json"),
                             {{"/review/state", "\"approved\""}, {"/review/body", "\"LGTM\""}}),
                        kGithubReview);
  ASSERT_EQ(m.events.size(), 1u);
  ASSERT_EQ(m.events[0].kind, model::EventKind::kFeedback);
  Parsed p(m.events[0]);
  EXPECT_EQ(p.S("/decision/decision"), "approved");
  EXPECT_EQ(p.S("/reviewerId"), "Codertocat");
  EXPECT_EQ(p.S("/freeText/generalNotes"), "LGTM");
  // The same id and version as the work event, so the review judges that work.
  EXPECT_EQ(p.S("/workProduct/id"), "github:Codertocat/Hello-World#2");
  EXPECT_EQ(p.S("/workProduct/version"), kSha);
  EXPECT_EQ(p.S("/modalId"), "github-review-237895671");
  EXPECT_EQ(p.S("/repository"), "Codertocat/Hello-World");
  EXPECT_EQ(p.S("/timestamp"), "2019-05-15T15:20:38.000Z");
  EXPECT_EQ(p.I("/meta/timeToDecisionMs"), 5000);  // created 15:20:33, reviewed 15:20:38
}

TEST(GithubEvents, CenturiesBetweenOpeningAndReviewStayWithinTheSchemasRanges) {
  // Found by fuzz/github_fuzz.cc: a review in 4038 of a PR opened in 2019 gave a
  // timeToDecisionMs over the schema's 1e12, and the log refused the line.
  GithubMapping m = Map(Edit(AgentPr("pull_request_review_submitted.json"),
                             {{"/review/state", "\"approved\""},
                              {"/review/submitted_at", "\"4038-05-15T15:20:38Z\""}}),
                        kGithubReview);
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(Parsed(m.events[0]).I("/meta/timeToDecisionMs"), 1'000'000'000'000);
  GithubMapping closed = Map(Edit(AgentPr("pull_request_closed.json"),
                                  {{"/pull_request/closed_at", "\"9999-05-15T15:20:38Z\""}}),
                             kGithubPullRequest);
  ASSERT_EQ(closed.events.size(), 1u);
  EXPECT_EQ(Parsed(closed.events[0]).I("/delay_days"), 1'000'000);
}

TEST(GithubEvents, ControlCharactersInIdentifiersAreReplacedSoTheLogTakesTheLine) {
  // Found by fuzz/github_fuzz.cc: identifiers may hold no control characters.
  GithubMapping m = Map(
      Edit(AgentPr("pull_request_opened.json"), {{"/pull_request/head/sha", "\"ec26\\u0000c3\""}}),
      kGithubPullRequest);
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(Parsed(m.events[0]).S("/workProduct/version"), "ec26?c3");
}

TEST(GithubEvents, ChangesRequestedIsNeedsWorkNotRejected) {
  GithubMapping m =
      Map(Edit(AgentPr("pull_request_review_submitted.json"),
               {{"/review/state", "\"changes_requested\""}, {"/review/body", "\"Add tests\""}}),
          kGithubReview);
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(Parsed(m.events[0]).S("/decision/decision"), "needs-work");
}

TEST(GithubEvents, CommentedReviewIsFreeTextWithoutADecision) {
  GithubMapping m = Map(Edit(AgentPr("pull_request_review_submitted.json"),
                             {{"/review/body", "\"Why not reuse the parser?\""}}),
                        kGithubReview);
  ASSERT_EQ(m.events.size(), 1u);
  Parsed p(m.events[0]);
  EXPECT_FALSE(p.Has("/decision"));
  EXPECT_EQ(p.S("/freeText/generalNotes"), "Why not reuse the parser?");
}

TEST(GithubEvents, CommentedReviewWithoutTextMapsToNothing) {
  // The real example: a `commented` review with a null body, the container of line comments.
  GithubMapping m = Map(AgentPr("pull_request_review_submitted.json"), kGithubReview);
  EXPECT_TRUE(m.events.empty());
  ASSERT_EQ(m.ignored.size(), 1u);
  EXPECT_NE(m.ignored[0].find("without text"), std::string::npos);
}

TEST(GithubEvents, ReviewOnAPersonsPullRequestOrByABotMapsToNothing) {
  EXPECT_TRUE(
      Map(Edit(Fixture("pull_request_review_submitted.json"), {{"/review/state", "\"approved\""}}),
          kGithubReview)
          .events.empty());
  GithubMapping bot = Map(Edit(AgentPr("pull_request_review_submitted.json"),
                               {{"/review/state", "\"approved\""},
                                {"/review/user/login", "\"copilot-pull-request-reviewer[bot]\""},
                                {"/review/user/type", "\"Bot\""}}),
                          kGithubReview);
  EXPECT_TRUE(bot.events.empty());
  ASSERT_EQ(bot.ignored.size(), 1u);
  EXPECT_NE(bot.ignored[0].find("not a person"), std::string::npos);
}

TEST(GithubEvents, ReviewCommentIsAnAnnotationOnItsFileAndLines) {
  GithubMapping m = Map(AgentPr("pull_request_review_comment_created.json"), kGithubReviewComment);
  ASSERT_EQ(m.events.size(), 1u);
  Parsed p(m.events[0]);
  EXPECT_EQ(p.S("/annotations/0/target/file"), "README.md");
  EXPECT_EQ(p.I("/annotations/0/target/lineStart"), 265);
  EXPECT_EQ(p.I("/annotations/0/target/lineEnd"), 265);
  EXPECT_EQ(p.S("/annotations/0/target/region"), "@@ -1 +1 @@\n-# Hello-World");
  EXPECT_EQ(p.S("/annotations/0/text"), "Maybe you should use more emoji on this line.");
  EXPECT_EQ(p.S("/annotations/0/type"), "suggestion");
  EXPECT_EQ(p.S("/freeText/generalNotes"), "Maybe you should use more emoji on this line.");
  EXPECT_EQ(p.S("/reviewerId"), "Codertocat");
  EXPECT_EQ(p.S("/modalId"), "github-comment-284312630");
  EXPECT_EQ(p.S("/workProduct/version"), kSha);
}

TEST(GithubEvents, MultiLineAndOutdatedCommentsKeepTheirLineRange) {
  const std::string c = AgentPr("pull_request_review_comment_created.json");
  Parsed range(Map(Edit(c, {{"/comment/start_line", "260"}, {"/comment/body", "\"Why?\""}}),
                   kGithubReviewComment)
                   .events.at(0));
  EXPECT_EQ(range.I("/annotations/0/target/lineStart"), 260);
  EXPECT_EQ(range.I("/annotations/0/target/lineEnd"), 265);
  EXPECT_EQ(range.S("/annotations/0/type"), "question");
  // Outdated: its line is gone from the head; the line it was made on remains.
  Parsed outdated(Map(Edit(c, {{"/comment/line", "null"}, {"/comment/original_line", "12"}}),
                      kGithubReviewComment)
                      .events.at(0));
  EXPECT_EQ(outdated.I("/annotations/0/target/lineStart"), 12);
  EXPECT_EQ(outdated.I("/annotations/0/target/lineEnd"), 12);
}

TEST(GithubEvents, ClosedUnmergedIsMergeOutcomeClosedAndMergedIsMerged) {
  GithubMapping closed = Map(AgentPr("pull_request_closed.json"), kGithubPullRequest);
  ASSERT_EQ(closed.events.size(), 1u);
  ASSERT_EQ(closed.events[0].kind, model::EventKind::kReward);
  Parsed c(closed.events[0]);
  EXPECT_EQ(c.S("/signal_type"), "merge_outcome");
  EXPECT_EQ(c.S("/raw_value"), "closed");
  EXPECT_EQ(c.S("/task_id"), "github:Codertocat/Hello-World#2");
  EXPECT_EQ(c.S("/commit_hash"), kSha);
  EXPECT_EQ(c.S("/context/repo"), "Codertocat/Hello-World");
  EXPECT_EQ(c.S("/context/agent"), "copilot");
  EXPECT_EQ(c.S("/timestamp"), "2019-05-15T15:21:18.000Z");

  GithubMapping merged = Map(Edit(AgentPr("pull_request_closed.json"),
                                  {{"/pull_request/merged", "true"},
                                   {"/pull_request/merged_at", "\"2019-05-15T15:21:18Z\""}}),
                             kGithubPullRequest);
  ASSERT_EQ(merged.events.size(), 1u);
  EXPECT_EQ(Parsed(merged.events[0]).S("/raw_value"), "merged");
  EXPECT_NE(merged.events[0].id, closed.events[0].id);
}

TEST(GithubEvents, GhApiReviewArrayNamesTheRecordedWorkByUrl) {
  // `gh api repos/O/R/pulls/7/reviews`: no envelope, states in upper case.
  const std::string reviews = R"([
    {"id": 11, "user": {"login": "ana", "type": "User"}, "body": "Ship it", "state": "APPROVED",
     "commit_id": "abc123", "submitted_at": "2026-03-01T10:00:00Z",
     "pull_request_url": "https://api.github.com/repos/acme/shop/pulls/7"},
    {"id": 12, "user": {"login": "ana", "type": "User"}, "body": "", "state": "PENDING",
     "commit_id": "abc123", "pull_request_url": "https://api.github.com/repos/acme/shop/pulls/7"}
  ])";
  GithubMapping m = Map(reviews, kGithubReview);
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(m.ignored.size(), 1u);  // the pending one
  Parsed p(m.events[0]);
  EXPECT_EQ(p.S("/workProduct/id"), "github:acme/shop#7");
  EXPECT_EQ(p.S("/workProduct/version"), "abc123");
  EXPECT_FALSE(p.Has("/workProduct/type"));  // a reference: the work must be recorded
  EXPECT_EQ(p.S("/decision/decision"), "approved");
  // --repo and --pr win over the URL.
  GithubMapping other = Map(reviews, kGithubReview, "acme/other", 9);
  EXPECT_EQ(Parsed(other.events.at(0)).S("/workProduct/id"), "github:acme/other#9");
}

TEST(GithubEvents, GhApiPullRequestSnapshotIsWorkAndItsOutcome) {
  // `gh api repos/O/R/pulls/2`: the pull request object alone, merged.
  rapidjson::Document d;
  const std::string closed = Edit(AgentPr("pull_request_closed.json"),
                                  {{"/pull_request/merged_at", "\"2019-05-15T15:21:18Z\""}});
  d.Parse(closed.c_str());
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  d["pull_request"].Accept(w);
  GithubMapping m = Map(b.GetString(), kGithubPullRequest);
  ASSERT_EQ(m.events.size(), 2u);
  EXPECT_EQ(m.events[0].kind, model::EventKind::kWork);
  EXPECT_EQ(Parsed(m.events[0]).S("/repository"), "Codertocat/Hello-World");  // base.repo
  EXPECT_EQ(Parsed(m.events[1]).S("/raw_value"), "merged");
}

TEST(GithubEvents, BareCommentWithoutUrlOrRepoIsRefusedNamingTheFieldAndTheFix) {
  auto m = MapGithubPayload(
      R"({"id": 1, "user": {"login": "ana"}, "body": "x", "path": "a.cc", "commit_id": "abc",
          "created_at": "2026-03-01T10:00:00Z"})",
      GithubSource{kGithubReviewComment, {}, std::nullopt}, Agents());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("pull_request_url: missing"), std::string::npos);
  EXPECT_NE(m.status().message().find("--repo OWNER/NAME and --pr N"), std::string::npos);
}

TEST(GithubEvents, MalformedPayloadsAreRefusedNamingFieldAndRule) {
  auto refuse = [](const std::string& payload, std::string_view event) {
    auto m = MapGithubPayload(payload, GithubSource{event, {}, std::nullopt}, Agents());
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.status().message();
  };
  EXPECT_NE(refuse("{\"action\": ", kGithubPullRequest).find("(payload): is not JSON"),
            std::string::npos);
  const std::string opened = AgentPr("pull_request_opened.json");
  EXPECT_EQ(refuse(Edit(opened, {{"/pull_request/head/sha", "null"}}), kGithubPullRequest),
            "pull_request.head.sha: missing (required string)");
  EXPECT_EQ(refuse(Edit(opened, {{"/pull_request/number", "\"2\""}}), kGithubPullRequest),
            "pull_request.number: \"2\" is not a whole number >= 0");
  EXPECT_EQ(
      refuse(Edit(opened, {{"/pull_request/created_at", "\"yesterday\""}}), kGithubPullRequest),
      "pull_request.created_at: \"yesterday\" is not an ISO 8601 timestamp (GitHub sends "
      "2019-05-15T15:20:33Z)");
  EXPECT_EQ(refuse("[1]", kGithubReview),
            "[0]: 1 is not an object (an array holds pull_request_review objects)");
  EXPECT_NE(refuse(R"({"number": 1})", kGithubPullRequest).find("no `head`"), std::string::npos);
}

TEST(GithubEvents, PingAndUnknownEventsMapToNothingAndSaySo) {
  GithubMapping ping = Map(R"({"zen": "Keep it logically awesome.", "hook_id": 1})", kGithubPing);
  EXPECT_TRUE(ping.events.empty());
  ASSERT_EQ(ping.ignored.size(), 1u);
  GithubMapping issues = Map(R"({"action": "opened"})", "issues");
  EXPECT_TRUE(issues.events.empty());
  ASSERT_EQ(issues.ignored.size(), 1u);
  EXPECT_NE(issues.ignored[0].find("\"issues\" is not mapped"), std::string::npos);
  GithubMapping labeled = Map(
      Edit(AgentPr("pull_request_opened.json"), {{"/action", "\"labeled\""}}), kGithubPullRequest);
  EXPECT_TRUE(labeled.events.empty());
  EXPECT_EQ(labeled.ignored.size(), 1u);
}

}  // namespace
}  // namespace kaizen::signals
