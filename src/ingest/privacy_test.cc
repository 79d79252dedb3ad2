// PII detection and the privacy rewrite (ingest/privacy.h), and the privacy stage of the Ingestor
// on a real temporary home: the consent gate and redaction before anything is written.
#include "ingest/privacy.h"

#include <gtest/gtest.h>
#include <simdjson.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/test_files.h"
#include "ingest/ingestor.h"
#include "ingest/pii_vault.h"
#include "store/file_system.h"

namespace kaizen::ingest {
namespace {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

std::unique_ptr<Redactor> MakeRedactor(PrivacyConfig config = {}) {
  auto r = Redactor::Create(config);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return std::move(r).value();
}

// Redacts with "[CATEGORY]" tokens, so tests read what was found where.
std::string Show(const Redactor& r, std::string_view text) {
  return r.Redact(text, [](const PiiMatch& m, std::string_view) {
    return "[" + std::string(PiiCategoryName(m.category)) + "]";
  });
}

TEST(RedactorTest, ReplacesEmailsAndPhoneNumbers) {
  auto r = MakeRedactor();
  EXPECT_EQ(Show(*r, "mail jane.doe+kz@example.co.uk now"), "mail [EMAIL] now");
  EXPECT_EQ(Show(*r, "call 555-123-4567 or +44 20 7946 0958 or (555) 123-4567"),
            "call [PHONE] or [PHONE] or [PHONE]");
  EXPECT_EQ(Show(*r, "E.164: +15551234567."), "E.164: [PHONE].");
}

TEST(RedactorTest, LeavesDatesVersionsAndDurationsAlone) {
  auto r = MakeRedactor();
  const std::string text =
      "on 2025-07-11 at 10:30 v1.2.3 took 1200 ms, 3 retries, issue #4512, port 8080";
  EXPECT_EQ(Show(*r, text), text);
}

TEST(RedactorTest, ReplacesEveryKindOfSecret) {
  auto r = MakeRedactor();
  EXPECT_EQ(Show(*r, "key AKIAIOSFODNN7EXAMPLE here"), "key [SECRET] here");
  EXPECT_EQ(Show(*r, "gh ghp_abcdefghijklmnopqrstuvwxyz0123456789"), "gh [SECRET]");
  EXPECT_EQ(Show(*r, "slack xoxb-1234567890-abcdefghij"), "slack [SECRET]");
  EXPECT_EQ(Show(*r, "openai sk-proj-abcdefghijklmnopqrstuvwx"), "openai [SECRET]");
  EXPECT_EQ(Show(*r, "anthropic sk-ant-api03-abcdefghijklmnopqrst"), "anthropic [SECRET]");
  EXPECT_EQ(Show(*r, "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcDEF_123-x end"),
            "jwt [SECRET] end");
}

TEST(RedactorTest, KeepsTheNameOfAnAssignmentAndRedactsItsValue) {
  auto r = MakeRedactor();
  EXPECT_EQ(Show(*r, "password=hunter22 and api_key: abc123xyz"),
            "password=[SECRET] and api_key: [SECRET]");
  EXPECT_EQ(Show(*r, "export DB_PASSWORD=\"s3cret!\""), "export DB_PASSWORD=\"[SECRET]\"");
  EXPECT_EQ(Show(*r, "Authorization: Bearer abcdef0123456789"), "Authorization: Bearer [SECRET]");
  // Words that merely mention secrets are not assignments.
  EXPECT_EQ(Show(*r, "the password field is missing validation"),
            "the password field is missing validation");
  // However long the name around the key word.
  EXPECT_EQ(Show(*r, "MY_VERY_LONG_APPLICATION_SPECIFIC_PRODUCTION_DATABASE_PASSWORD=hunter22"),
            "MY_VERY_LONG_APPLICATION_SPECIFIC_PRODUCTION_DATABASE_PASSWORD=[SECRET]");
  EXPECT_EQ(Show(*r, "pwd=hunter22, xpwd=plain"), "pwd=[SECRET], xpwd=plain");
}

// A detector stays undecided over at most a bounded stretch before its value (an e-mail's local
// part at most 64 bytes), so a long run of text with many hits is not searched to its end for
// each; what such a run holds is still found.
TEST(RedactorTest, ALongRunWithManyHitsIsRedactedThroughout) {
  auto r = MakeRedactor({{"Ann"}, {}});
  std::string run;
  while (run.size() < 60000) run += "xAnn Ann ";
  const std::string shown = Show(*r, run);
  EXPECT_EQ(shown.find(" Ann"), std::string::npos);
  EXPECT_NE(shown.find("xAnn [NAME]"), std::string::npos);
  const std::string local(64, 'a');
  EXPECT_EQ(Show(*r, local + "@example.com"), "[EMAIL]");
  EXPECT_EQ(Show(*r, "b" + local + "@example.com"), "b[EMAIL]");  // past RFC 5321's 64
}

TEST(RedactorTest, ReplacesAWholePemPrivateKeyBlock) {
  auto r = MakeRedactor();
  EXPECT_EQ(Show(*r,
                 "before -----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\nxyz\n-----END RSA "
                 "PRIVATE KEY----- after"),
            "before [SECRET] after");
}

TEST(RedactorTest, MatchesListedNamesAsWholeWordsIgnoringCase) {
  PrivacyConfig config;
  config.names = {"John Smith", "Ann"};
  config.companies = {"Acme", "Acme Corp"};
  auto r = MakeRedactor(config);
  EXPECT_EQ(Show(*r, "JOHN SMITH and ann met Annabel at acme corp, not Acme."),
            "[NAME] and [NAME] met Annabel at [COMPANY], not [COMPANY].");
  std::vector<PiiMatch> matches;
  r->Find("john smith, John Smith", &matches);
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].key, matches[1].key);  // one person, one token
}

// "Ann Lee" matches in "Ann Leeds" but is not a whole word there; "Ann" is, and must still be
// found at the same place.
TEST(RedactorTest, AListedNameInsideALongerNearMissIsStillFound) {
  auto r = MakeRedactor({{"Ann", "Ann Lee"}, {"Acme", "Acme Corporation"}});
  EXPECT_EQ(Show(*r, "Ann Leeds called"), "[NAME] Leeds called");
  EXPECT_EQ(Show(*r, "Ann Lee called"), "[NAME] called");
  EXPECT_EQ(Show(*r, "ann leeway"), "[NAME] leeway");
  EXPECT_EQ(Show(*r, "Acme Corporations merged"), "[COMPANY] Corporations merged");
  EXPECT_EQ(Show(*r, "Annabel Leeds"), "Annabel Leeds");
}

// The longest listed word wins whichever list it is on: a company is not cut to a listed name
// with the rest of it left in clear.
TEST(RedactorTest, TheLongestListedWordWinsAcrossNamesAndCompanies) {
  auto r = MakeRedactor({{"Ann", "ann lee"}, {"Ann Lee Ltd", "ANN"}});
  EXPECT_EQ(Show(*r, "Ann Lee Ltd ships"), "[COMPANY] ships");
  EXPECT_EQ(Show(*r, "Ann Lee shops"), "[NAME] shops");
  EXPECT_EQ(Show(*r, "ann"), "[NAME]");  // on both lists: a name
}

TEST(RedactorTest, SameEmailInAnotherCaseHasTheSameKey) {
  auto r = MakeRedactor();
  std::vector<PiiMatch> m;
  r->Find("Jane@Example.com jane@example.com", &m);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].key, m[1].key);
}

TEST(PrivacyConfigTest, ErrorsNameThePathTheValueAndTheRule) {
  auto bad_item = ParsePrivacyConfig(R"({"names":["Ann", 42]})");
  ASSERT_FALSE(bad_item.ok());
  EXPECT_EQ(bad_item.status().message(), "names[1]: 42 is not a string");
  auto bad_key = ParsePrivacyConfig(R"({"people":[]})");
  ASSERT_FALSE(bad_key.ok());
  EXPECT_NE(bad_key.status().message().find("people: is not a known key"), std::string::npos);
  auto empty = ParsePrivacyConfig(R"({"companies":["  "]})");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("companies[0]: \"  \" is empty"), std::string::npos);
  auto not_json = ParsePrivacyConfig("{names:");
  ASSERT_FALSE(not_json.ok());
  EXPECT_NE(not_json.status().message().find("is not JSON"), std::string::npos);
  auto ok = ParsePrivacyConfig(R"({"names":["Ann"],"companies":["Acme"]})");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->names, std::vector<std::string>{"Ann"});
}

TEST(PseudonymTest, IsStableIdempotentAndHidesTheId) {
  const std::string p = Pseudonym("jordan");
  EXPECT_EQ(p, Pseudonym("jordan"));
  EXPECT_EQ(Pseudonym(p), p);
  EXPECT_NE(p, Pseudonym("jordan2"));
  EXPECT_TRUE(IsPseudonym(p));
  EXPECT_EQ(p.find("jordan"), std::string::npos);
}

struct Parsed {
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::element e;
  explicit Parsed(std::string_view json) : text(json) { EXPECT_FALSE(parser.parse(text).get(e)); }
};

std::string Rewrite(std::string_view json, model::EventKind kind, const Redactor& r) {
  Parsed p(json);
  std::string out;
  if (!RewriteForPrivacy(
          p.e, kind, r,
          [](const PiiMatch& m, std::string_view) {
            return std::string("[") + std::string(PiiCategoryName(m.category)) + "]";
          },
          &out)) {
    return "(unchanged)";
  }
  return out;
}

TEST(RewriteForPrivacyTest, RedactsFreeTextFieldsOnlyAndKeepsKeyOrder) {
  auto r = MakeRedactor();
  EXPECT_EQ(Rewrite(R"({"kind":"feedback","reviewerId":"a@b.io","freeText":{"liked":"ask a@b.io"},)"
                    R"("decision":{"decision":"rejected","blockers":["call 555-123-4567"]}})",
                    model::EventKind::kFeedback, *r),
            R"({"kind":"feedback","reviewerId":"a@b.io","freeText":{"liked":"ask [EMAIL]"},)"
            R"("decision":{"decision":"rejected","blockers":["call [PHONE]"]}})");
  EXPECT_EQ(Rewrite(R"({"kind":"error","message":"token=abcdef123","tool_name":"a@b.io"})",
                    model::EventKind::kError, *r),
            "(unchanged)");  // a bare "token=" is too common a word to be a secret
  EXPECT_EQ(Rewrite(R"({"kind":"correction","original":"x@y.com","corrected":"z",)"
                    R"("context":{"section":"mail q@r.com"}})",
                    model::EventKind::kCorrection, *r),
            R"({"kind":"correction","original":"[EMAIL]","corrected":"z",)"
            R"("context":{"section":"mail [EMAIL]"}})");
}

// Every string value "sN" of `json` with its path, as IsFreeTextPath names paths.
void PathsOfStrings(simdjson::dom::element v, const std::string& path,
                    std::map<std::string, std::string>* out) {
  // The object and the array are copied out of their results: a range-for over value_unsafe() of
  // a temporary result would iterate a dangling reference.
  if (simdjson::dom::object o; v.get_object().get(o) == simdjson::SUCCESS) {
    for (auto [key, child] : o) {
      PathsOfStrings(child, path.empty() ? std::string(key) : path + "." + std::string(key), out);
    }
  } else if (simdjson::dom::array a; v.get_array().get(a) == simdjson::SUCCESS) {
    for (simdjson::dom::element child : a) PathsOfStrings(child, path + "[]", out);
  } else if (v.is_string() && v.get_string().value_unsafe().starts_with('s')) {
    (*out)[std::string(v.get_string().value_unsafe())] = path;
  }
}

// RewriteForPrivacy looks only where the PII might be (the free-text paths), not at every string;
// an email put in each string of an event in turn must be redacted exactly where IsFreeTextPath
// says the string is free text: deep or shallow, in arrays, beside decoys with similar names.
TEST(RewriteForPrivacyTest, AnEmailAnywhereIsRedactedExactlyWhereThePathIsFreeText) {
  auto r = MakeRedactor();
  const std::pair<model::EventKind, std::string> events[] = {
      {model::EventKind::kFeedback,
       R"({"kind":"feedback","reviewerId":"s1","freeText":{"liked":"s2","disliked":"s3",)"
       R"("generalNotes":"s4","likedx":"s5"},"decision":{"decision":"s6","reason":"s7",)"
       R"("blockers":["s8",["s9"]],"suggestions":["s10"]},"annotations":[{"text":"s11",)"
       R"("category":"s12"},["s13"]],"comparison":{"reason":"s14","preferred":"s15"},)"
       R"("scores":[{"dimension":"s16","comment":"s17"}],"meta":{"reason":"s18"},"text":"s19"})"},
      {model::EventKind::kCorrection,
       R"({"kind":"correction","original":"s1","corrected":"s2","user_id":"s3",)"
       R"("context":{"a":"s4","b":["s5",{"c":"s6"}]},"contextual":"s7"})"},
      {model::EventKind::kCorrection, R"({"kind":"correction","context":"s1","original":"s2"})"},
      {model::EventKind::kError,
       R"({"kind":"error","message":"s1","context":"s2","stack_trace":"s3","tool_name":"s4"})"},
      {model::EventKind::kError, R"({"kind":"error","context":{"message":"s1"},"message":"s2"})"},
      {model::EventKind::kOutcome,
       R"({"kind":"outcome","description":"s1","failure_details":"s2","strategy":"s3",)"
       R"("criteria":["s4"]})"},
      {model::EventKind::kLoop, R"({"kind":"loop","feedback":"s1","loop_id":"s2"})"},
      {model::EventKind::kAdmin,
       R"({"kind":"admin","action":"rule_audit","note":"s1","rule_id":"s2","user_id":"s3"})"},
      {model::EventKind::kWork, R"({"kind":"work","workProduct":{"summary":"s1","id":"s2"}})"},
      {model::EventKind::kReward, R"({"kind":"reward","raw_value":"s1","task_id":"s2"})"},
  };
  int free_text = 0, other = 0;
  for (const auto& [kind, json] : events) {
    Parsed p(json);
    std::map<std::string, std::string> paths;
    PathsOfStrings(p.e, "", &paths);
    ASSERT_FALSE(paths.empty()) << json;
    for (const auto& [value, path] : paths) {
      std::string planted = json;
      const std::string quoted = "\"" + value + "\"";
      planted.replace(planted.find(quoted), quoted.size(), "\"mail a@b.io\"");
      const bool expected = IsFreeTextPath(kind, path);
      EXPECT_EQ(Rewrite(planted, kind, *r) != "(unchanged)", expected)
          << "the email at " << path << " in " << planted;
      ++(expected ? free_text : other);
    }
  }
  EXPECT_EQ(free_text, 24);  // the test covers both answers, many times each
  EXPECT_EQ(other, 23);
}

// The free-text strings of an event are searched as one text (one RE2 search an event, not one a
// string). PII that only the joined text would show, split across two strings, is no PII; PII
// that fills a string or starts or ends it is found wherever the string is.
TEST(RewriteForPrivacyTest, PiiIsSoughtInEachStringAloneThoughTheyAreSearchedTogether) {
  PrivacyConfig config;
  config.names = {"Ann Lee"};
  auto r = MakeRedactor(config);
  auto feedback = [](std::string_view liked, std::string_view disliked) {
    return fmt::format(R"({{"kind":"feedback","freeText":{{"liked":"{}","disliked":"{}"}}}})",
                       liked, disliked);
  };
  const std::pair<std::string_view, std::string_view> split[] = {
      {"write to alice", "@example.com"},       {"alice@", "example.com"},
      {"call 555-123", "-4567 today"},          {"call +4930", "1234567"},
      {"the password", ": hunter2secret"},      {"Authorization: Bearer", "abcdefghijklmnop"},
      {"key AKIAABCDEFGH", "IJKLMNOP"},         {"token sk-", "abcdefghijklmnopqrstuvwx"},
      {"an eyJhbGciOiJI.eyJzdWIiOiIx", ".sig"}, {"ask Ann", "Lee today"}};
  for (const auto& [liked, disliked] : split) {
    EXPECT_EQ(Rewrite(feedback(liked, disliked), model::EventKind::kFeedback, *r), "(unchanged)")
        << liked << " | " << disliked;
  }
  const std::string_view whole[] = {
      "a@b.io",      "a@b.io is mine",  "555-123-4567", "Ann Lee",
      "ask Ann Lee", "Ann Lee says no", "pwd=x1y2z3",   "sk-abcdefghijklmnopqrstuvwx"};
  for (std::string_view pii : whole) {
    EXPECT_NE(Rewrite(feedback(pii, "fine"), model::EventKind::kFeedback, *r), "(unchanged)")
        << pii;
    EXPECT_NE(Rewrite(feedback("fine", pii), model::EventKind::kFeedback, *r), "(unchanged)")
        << pii;
  }
}

TEST(RewriteForPrivacyTest, StoresConsentAndDeletionIdsAsPseudonyms) {
  auto r = MakeRedactor();
  EXPECT_EQ(
      Rewrite(R"({"kind":"admin","action":"consent","user_id":"jordan","learning_mode":false})",
              model::EventKind::kAdmin, *r),
      fmt::format(R"({{"kind":"admin","action":"consent","user_id":"{}","learning_mode":false}})",
                  Pseudonym("jordan")));
  // A rule audit's ids are not personal data of a subject: unchanged.
  EXPECT_EQ(Rewrite(R"({"kind":"admin","action":"rule_audit","rule_id":"r1","verdict":"confirm"})",
                    model::EventKind::kAdmin, *r),
            "(unchanged)");
}

TEST(PrivacyFieldsTest, OwnersAndConsentAreReadFromTheSchemaFields) {
  Parsed fb(R"({"kind":"feedback","reviewerId":"jake","sessionId":"s1"})");
  EventOwners o = OwnersOf(fb.e, model::EventKind::kFeedback);
  EXPECT_EQ(std::vector<std::string_view>(o.users.begin(), o.users.end()),
            std::vector<std::string_view>{"jake"});
  EXPECT_EQ(std::vector<std::string_view>(o.sessions.begin(), o.sessions.end()),
            std::vector<std::string_view>{"s1"});
  Parsed consent(R"({"kind":"admin","action":"consent","user_id":"u","learning_mode":false})");
  auto c = ConsentOf(consent.e, model::EventKind::kAdmin);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->user_id, "u");
  EXPECT_FALSE(c->learning_mode);
  EXPECT_FALSE(ConsentOf(fb.e, model::EventKind::kFeedback).has_value());
  EXPECT_TRUE(IsFreeTextPath(model::EventKind::kFeedback, "annotations[].text"));
  EXPECT_FALSE(IsFreeTextPath(model::EventKind::kFeedback, "annotations[].category"));
}

// ---- the privacy stage of the Ingestor ---------------------------------------------------------

constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z

class PrivacyIngestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-privacy");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override { fs::remove_all(home_); }

  IngestSummary Ingest(const std::string& jsonl, std::vector<LineResult>* results = nullptr) {
    Ingestor ingestor(home_, store::DefaultFileSystem());  // a new one each time: a restart
    simdjson::padded_string input(jsonl);
    IngestOptions options;
    options.now_ms = kNowMs;
    options.on_line = [&](const LineResult& r) {
      if (results)
        results->push_back({r.line_number, {}, r.stored, r.id, r.errors, r.skipped, r.skip_reason});
    };
    IngestSummary summary;
    Status s = ingestor.Ingest(std::string_view(input), options, &summary);
    EXPECT_TRUE(s.ok()) << s.message();
    return summary;
  }
  std::string Log() const { return ReadAll(home_ + "/feedback/raw/2025-07-19.jsonl"); }

  std::string home_;
};

std::string Correction(const std::string& user, const std::string& text,
                       const std::string& ts = "2025-07-19T10:00:00Z") {
  return fmt::format(
      R"({{"kind":"correction","timestamp":"{}","session_id":"cs","correction_type":"tone_mismatch",)"
      R"("original":"{}","corrected":"fixed","user_id":"{}"}})",
      ts, text, user);
}
std::string Consent(const std::string& user, bool on, const std::string& ts) {
  return fmt::format(
      R"({{"kind":"admin","timestamp":"{}","action":"consent","user_id":"{}","learning_mode":{}}})",
      ts, user, on ? "true" : "false");
}

TEST_F(PrivacyIngestTest, LearningModeOffSkipsTheUsersEventsUntilSwitchedBackOn) {
  std::vector<LineResult> results;
  IngestSummary s = Ingest(Consent("jordan", false, "2025-07-19T09:00:00Z") + "\n" +
                               Correction("jordan", "secret words one") + "\n" +
                               Correction("casey", "casey words") + "\n",
                           &results);
  EXPECT_EQ(s.stored, 2u);
  EXPECT_EQ(s.skipped, 1u);
  EXPECT_EQ(s.rejected, 0u);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[1].skipped);
  EXPECT_TRUE(results[1].errors.empty());
  // A restart derives the state from the log (the cache), and still skips.
  s = Ingest(Correction("jordan", "secret words two") + "\n");
  EXPECT_EQ(s.skipped, 1u);
  // Deleting the cache rebuilds it from the raw log: still skipped.
  fs::remove(home_ + "/feedback/indexes/ingest.cache");
  fs::remove(home_ + "/feedback/indexes/ingest.watermark");
  s = Ingest(Correction("jordan", "secret words three") + "\n");
  EXPECT_EQ(s.skipped, 1u);
  const std::string log = Log();
  EXPECT_EQ(log.find("secret words"), std::string::npos);
  EXPECT_EQ(log.find("\"jordan\""), std::string::npos);  // the consent event holds a pseudonym
  EXPECT_NE(log.find(Pseudonym("jordan")), std::string::npos);
  // Back on: stored again.
  s = Ingest(Consent("jordan", true, "2025-07-19T11:00:00Z") + "\n" +
             Correction("jordan", "welcome back") + "\n");
  EXPECT_EQ(s.stored, 2u);
  EXPECT_EQ(s.skipped, 0u);
}

TEST_F(PrivacyIngestTest, TheLatestConsentByTimestampWins) {
  // Recorded in the other order: the later timestamp (off) wins over the earlier one (on).
  Ingest(Consent("jordan", false, "2025-07-19T12:00:00Z") + "\n" +
         Consent("jordan", true, "2025-07-19T08:00:00Z") + "\n");
  EXPECT_EQ(Ingest(Correction("jordan", "x") + "\n").skipped, 1u);
}

TEST_F(PrivacyIngestTest, PiiIsReplacedByTokensStableAcrossRunsAndKeptInTheVault) {
  fs::create_directories(home_ + "/config");
  std::ofstream(home_ + "/config/privacy.json") << R"({"names":["John Smith"]})";
  IngestSummary s = Ingest(Correction("casey", "ask John Smith at john@corp.io") + "\n");
  EXPECT_EQ(s.redacted, 2u);
  Ingest(Correction("dana", "john smith again, and Mary at mary@corp.io", "2025-07-19T11:00:00Z") +
         "\n");
  const std::string log = Log();
  EXPECT_NE(log.find(R"("original":"ask [NAME_1] at [EMAIL_1]")"), std::string::npos) << log;
  EXPECT_NE(log.find(R"("original":"[NAME_1] again, and Mary at [EMAIL_2]")"), std::string::npos)
      << log;
  EXPECT_EQ(log.find("john@corp.io"), std::string::npos);
  EXPECT_EQ(log.find("John Smith"), std::string::npos);
  auto vault = PiiVault::Open(home_);
  ASSERT_TRUE(vault.ok()) << vault.status().message();
  const PiiVault::Entry* name = vault->Find("[NAME_1]");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->value, "John Smith");
  EXPECT_EQ(name->sources.size(), 2u);  // casey's and dana's corrections
  EXPECT_EQ(ReadAll(home_ + "/private/pii-map.bin").find("John Smith"), std::string::npos);
}

TEST_F(PrivacyIngestTest, ThemesAreComputedOnTheRedactedText) {
  Ingest(R"({"kind":"feedback","timestamp":"2025-07-19T10:00:00Z","sessionId":"s","modalId":"m",)"
         R"("workProduct":{"type":"code-module","id":"a","version":"v1","summary":"s",)"
         R"("bubaConfidence":0.5,"generationContext":{"promptHash":"p","memorySnapshot":[],)"
         R"("modelUsed":"m","generationTimeMs":1,"iterationCount":1}},"pipelineStage":"review",)"
         R"("freeText":{"disliked":"missing retry logic; mail ops@corp.io, add error handling"},)"
         R"("meta":{"timeToDecisionMs":1000}})"
         "\n");
  const std::string log = Log();
  EXPECT_EQ(log.find("ops@corp.io"), std::string::npos);
  EXPECT_NE(log.find("[EMAIL_1]"), std::string::npos);
  EXPECT_NE(log.find("\"sessionFatigue\":1"), std::string::npos) << log;
  // The actionable items come from the redacted text too.
  EXPECT_EQ(log.find("corp.io"), std::string::npos);
}

TEST_F(PrivacyIngestTest, AnInvalidConfigStopsTheIngestBeforeAnythingIsStored) {
  fs::create_directories(home_ + "/config");
  std::ofstream(home_ + "/config/privacy.json") << R"({"names":[7]})";
  Ingestor ingestor(home_, store::DefaultFileSystem());
  simdjson::padded_string input(Correction("casey", "x") + "\n");
  IngestOptions options;
  options.now_ms = kNowMs;
  IngestSummary summary;
  Status s = ingestor.Ingest(std::string_view(input), options, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("config/privacy.json: names[0]: 7 is not a string"), std::string::npos)
      << s.message();
  EXPECT_FALSE(fs::exists(home_ + "/feedback/raw/2025-07-19.jsonl"));
}

}  // namespace
}  // namespace kaizen::ingest
