// What each role may write (serve/access.h), checked on the event lines themselves.
#include "serve/access.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::serve {
namespace {

using model::EventKind;

Principal Reviewer(std::string name) { return {std::move(name), store::Role::kReviewer}; }
Principal Agent(std::string name) { return {std::move(name), store::Role::kAgent}; }

TEST(AdmitTest, AReviewersFeedbackWithoutReviewerIdBecomesTheirs) {
  std::string line = R"({"kind":"feedback","decision":{"decision":"approved"}})";
  EXPECT_EQ(Admit(Reviewer("priya"), std::nullopt, &line), "");
  EXPECT_EQ(line, R"({"reviewerId":"priya","kind":"feedback","decision":{"decision":"approved"}})");
}

TEST(AdmitTest, AnEmptyObjectGetsNoTrailingComma) {
  std::string line = "{}";
  EXPECT_EQ(Admit(Reviewer("sam"), EventKind::kFeedback, &line), "");
  EXPECT_EQ(line, R"({"reviewerId":"sam"})");
}

TEST(AdmitTest, AReviewerCannotWriteSomeoneElsesFeedback) {
  std::string line = R"({"kind":"feedback","reviewerId":"jake"})";
  const std::string why = Admit(Reviewer("priya"), std::nullopt, &line);
  EXPECT_NE(why.find("\"jake\""), std::string::npos) << why;
  EXPECT_NE(why.find("\"priya\""), std::string::npos) << why;
  std::string own = R"({"kind":"feedback","reviewerId":"priya"})";
  EXPECT_EQ(Admit(Reviewer("priya"), std::nullopt, &own), "");
}

TEST(AdmitTest, AnAgentCannotWriteFeedbackButWritesWork) {
  std::string feedback = R"({"reviewerId":"ci"})";
  EXPECT_NE(Admit(Agent("ci"), EventKind::kFeedback, &feedback).find("cannot write feedback"),
            std::string::npos);
  std::string work = R"({"kind":"work","workProduct":{"id":"a"}})";
  EXPECT_EQ(Admit(Agent("ci"), std::nullopt, &work), "");
  std::string submit = R"({"kind":"admin","action":"submit"})";
  EXPECT_EQ(Admit(Agent("ci"), std::nullopt, &submit), "");
}

TEST(AdmitTest, RuleAuditsAndDeletionsNeedAnAdmin) {
  for (const char* action : {"rule_audit", "deletion_request"}) {
    std::string line = std::string(R"({"kind":"admin","action":")") + action + "\"}";
    EXPECT_NE(Admit(Reviewer("priya"), std::nullopt, &line).find("needs an admin token"),
              std::string::npos)
        << action;
    EXPECT_EQ(Admit(Principal{"root", store::Role::kAdmin}, std::nullopt, &line), "") << action;
  }
}

TEST(AdmitTest, AReviewerSetsOnlyTheirOwnConsentAndMayDismiss) {
  std::string own = R"({"kind":"admin","action":"consent","user_id":"priya"})";
  EXPECT_EQ(Admit(Reviewer("priya"), std::nullopt, &own), "");
  std::string other = R"({"kind":"admin","action":"consent","user_id":"jake"})";
  EXPECT_NE(Admit(Reviewer("priya"), std::nullopt, &other), "");
  std::string dismiss = R"({"kind":"admin","action":"dismiss","work_id":"a"})";
  EXPECT_EQ(Admit(Reviewer("priya"), std::nullopt, &dismiss), "");
}

TEST(AdmitTest, AReviewerReservesOnlyForThemselves) {
  std::string own = R"({"kind":"admin","action":"reserve","work_id":"a","reviewerId":"priya"})";
  EXPECT_EQ(Admit(Reviewer("priya"), std::nullopt, &own), "");
  std::string other = R"({"kind":"admin","action":"reserve","work_id":"a","reviewerId":"jake"})";
  EXPECT_NE(Admit(Reviewer("priya"), std::nullopt, &other), "");
  std::string agent = R"({"kind":"admin","action":"release","work_id":"a","reviewerId":"ci"})";
  EXPECT_NE(Admit(Agent("ci"), std::nullopt, &agent), "");
}

TEST(AdmitTest, JsonlNamesTheRefusedLineAndFillsTheOthers) {
  std::string body = "{\"kind\":\"feedback\"}\n\n{\"kind\":\"feedback\",\"reviewerId\":\"x\"}\n";
  EXPECT_EQ(AdmitLines(Reviewer("p"), &body).rfind("line 3:", 0), 0u);
  std::string fine = "{\"kind\":\"feedback\"}\n{\"kind\":\"outcome\"}";
  EXPECT_EQ(AdmitLines(Reviewer("p"), &fine), "");
  EXPECT_EQ(fine, "{\"reviewerId\":\"p\",\"kind\":\"feedback\"}\n{\"kind\":\"outcome\"}\n");
}

TEST(AdmitTest, ALineThatIsNotJsonIsLeftToThePipeline) {
  std::string line = "not json";
  EXPECT_EQ(Admit(Agent("ci"), std::nullopt, &line), "");
  EXPECT_EQ(line, "not json");
}

}  // namespace
}  // namespace kaizen::serve
