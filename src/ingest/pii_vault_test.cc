// The encrypted PII map: stable tokens, the round trip through the encrypted file, forgetting by
// user or session, and what deleting the key does.
#include "ingest/pii_vault.h"
#include "base/test_files.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kaizen::ingest {
namespace {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

class PiiVaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-vault");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override { fs::remove_all(home_); }
  PiiVault Open() {
    auto v = PiiVault::Open(home_);
    EXPECT_TRUE(v.ok()) << v.status().message();
    return std::move(v).value();
  }
  std::string home_;
};

TEST_F(PiiVaultTest, TheSameValueGetsTheSameTokenAndCategoriesCountSeparately) {
  PiiVault v = Open();
  EXPECT_EQ(v.TokenFor(PiiCategory::kName, "john smith", "John Smith", {"u1", "s1"}), "[NAME_1]");
  EXPECT_EQ(v.TokenFor(PiiCategory::kEmail, "a@b.io", "a@b.io", {"u1", "s1"}), "[EMAIL_1]");
  EXPECT_EQ(v.TokenFor(PiiCategory::kName, "mary", "Mary", {"u2", "s2"}), "[NAME_2]");
  EXPECT_EQ(v.TokenFor(PiiCategory::kName, "john smith", "JOHN SMITH", {"u2", "s2"}), "[NAME_1]");
  const PiiVault::Entry* e = v.Find("[NAME_1]");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->value, "John Smith");  // the first spelling seen
  EXPECT_EQ(e->sources.size(), 2u);
  EXPECT_EQ(v.Find("[NAME_9]"), nullptr);
}

TEST_F(PiiVaultTest, SavedMapIsEncryptedPrivateAndReadBack) {
  {
    PiiVault v = Open();
    v.TokenFor(PiiCategory::kEmail, "jane@corp.io", "jane@corp.io", {"jake", "s1"});
    ASSERT_TRUE(v.Save().ok());
  }
  const std::string map = ReadAll(home_ + "/private/pii-map.bin");
  EXPECT_EQ(map.find("jane@corp.io"), std::string::npos);
  EXPECT_EQ(map.find("jake"), std::string::npos);
  struct stat st;
  ASSERT_EQ(::stat((home_ + "/keys/pii.key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_size, 32);
  ASSERT_EQ(::stat((home_ + "/private/pii-map.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  PiiVault again = Open();
  const PiiVault::Entry* e = again.Find("[EMAIL_1]");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->value, "jane@corp.io");
  EXPECT_EQ(e->sources[0].user, "jake");
  EXPECT_FALSE(again.dirty());
}

TEST_F(PiiVaultTest, ForgetDeletesOnlyEntriesNoOtherUserOrSessionSourced) {
  PiiVault v = Open();
  v.TokenFor(PiiCategory::kName, "ann", "Ann", {"u1", "s1"});
  v.TokenFor(PiiCategory::kName, "bob", "Bob", {"u1", "s1"});
  v.TokenFor(PiiCategory::kName, "bob", "Bob", {"u2", "s2"});
  EXPECT_EQ(v.ForgetUser("u1"), 1u);
  EXPECT_EQ(v.Find("[NAME_1]"), nullptr);
  ASSERT_NE(v.Find("[NAME_2]"), nullptr);
  EXPECT_EQ(v.Find("[NAME_2]")->sources.size(), 1u);
  EXPECT_EQ(v.ForgetSession("s2"), 1u);
  EXPECT_EQ(v.size(), 0u);
  // Numbers are never reused: a new value after a forget gets a new number.
  EXPECT_EQ(v.TokenFor(PiiCategory::kName, "cy", "Cy", {"u3", ""}), "[NAME_3]");
}

// Each source once per entry, however often it comes back, across a save and reopen; a source
// forgotten from an entry that survives is recorded again when it reappears.
TEST_F(PiiVaultTest, AnEntryRecordsEachSourceOnceAndAForgottenOneAgain) {
  {
    PiiVault v = Open();
    for (int i = 0; i < 3000; ++i) {
      v.TokenFor(PiiCategory::kEmail, "a@b.io", "a@b.io", {"u1", "s" + std::to_string(i % 1000)});
    }
    EXPECT_EQ(v.Find("[EMAIL_1]")->sources.size(), 1000u);
    ASSERT_TRUE(v.Save().ok());
  }
  PiiVault v = Open();
  v.TokenFor(PiiCategory::kEmail, "a@b.io", "a@b.io", {"u1", "s7"});
  EXPECT_FALSE(v.dirty());  // already a source: nothing changed
  v.TokenFor(PiiCategory::kEmail, "a@b.io", "a@b.io", {"u2", "t1"});
  EXPECT_EQ(v.ForgetUser("u2"), 0u);  // the entry keeps its u1 sources
  EXPECT_EQ(v.Find("[EMAIL_1]")->sources.size(), 1000u);
  v.TokenFor(PiiCategory::kEmail, "a@b.io", "a@b.io", {"u2", "t1"});
  EXPECT_EQ(v.Find("[EMAIL_1]")->sources.size(), 1001u);
}

TEST_F(PiiVaultTest, DeletingTheKeyMakesTheMapUnreadableButKeepsTheNumbering) {
  {
    PiiVault v = Open();
    v.TokenFor(PiiCategory::kName, "ann", "Ann", {"u1", "s1"});
    ASSERT_TRUE(v.Save().ok());
  }
  fs::remove(home_ + "/keys/pii.key");
  PiiVault v = Open();
  EXPECT_TRUE(v.key_was_missing());
  EXPECT_EQ(v.Find("[NAME_1]"), nullptr);
  EXPECT_EQ(v.TokenFor(PiiCategory::kName, "ann", "Ann", {"u1", "s1"}), "[NAME_2]");
  ASSERT_TRUE(v.Save().ok());
  EXPECT_TRUE(fs::exists(home_ + "/keys/pii.key"));  // a new key
  EXPECT_NE(Open().Find("[NAME_2]"), nullptr);
}

TEST_F(PiiVaultTest, AMapUnderAnotherKeyIsReportedAsDataLoss) {
  {
    PiiVault v = Open();
    v.TokenFor(PiiCategory::kName, "ann", "Ann", {"u1", "s1"});
    ASSERT_TRUE(v.Save().ok());
  }
  std::ofstream(home_ + "/keys/pii.key", std::ios::binary | std::ios::trunc)
      << std::string(32, 'k');
  auto v = PiiVault::Open(home_);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(v.status().message().find("cannot be decrypted"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::ingest
