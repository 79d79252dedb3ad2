// The token registry of a home (config/tokens.json); the store's table is tested through the
// binary (tests/integration/test_tokens.py).
#include "store/token_registry.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "base/test_files.h"
#include "store/log_format.h"

namespace kaizen::store {
namespace {

// A scratch home, removed with the test.
struct TempDir {
  std::string dir = base::test_files::MakeTempDir("kaizen-tokens");
  ~TempDir() { std::filesystem::remove_all(dir); }
  const std::string& path() const { return dir; }
};

TEST(TokenRegistryTest, KeepsOnlyHashesAndRefusesASecondValidName) {
  TempDir dir;
  TokenRegistry registry(dir.path(), DefaultFileSystem(), nullptr);
  const std::string token = NewToken();
  ASSERT_EQ(token.size(), 3u + 64u);
  TokenEntry e{"priya", Role::kReviewer, TokenHash(token), "2026-11-29T00:00:00Z", ""};
  ASSERT_TRUE(registry.Add(e).ok());
  EXPECT_EQ(registry.Add(e).code(), StatusCode::kAlreadyExists);
  const std::string text = base::test_files::ReadAll(PathIn(dir.path(), kTokensFile));
  EXPECT_EQ(text.find(token), std::string::npos);
  EXPECT_NE(text.find(TokenHash(token)), std::string::npos);
  struct stat st;
  ASSERT_EQ(::stat(PathIn(dir.path(), kTokensFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(TokenRegistryTest, ARevokedNameMayBeMadeAgain) {
  TempDir dir;
  TokenRegistry registry(dir.path(), DefaultFileSystem(), nullptr);
  TokenEntry e{"ci", Role::kAgent, TokenHash("a"), "2026-11-29T00:00:00Z", ""};
  ASSERT_TRUE(registry.Add(e).ok());
  ASSERT_TRUE(registry.Revoke("ci", "2026-11-29T01:00:00Z").ok());
  EXPECT_EQ(registry.Revoke("ci", "2026-11-29T01:00:00Z").code(), StatusCode::kNotFound);
  auto listed = registry.List();
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].revoked, "2026-11-29T01:00:00Z");
  e.hash = TokenHash("b");
  ASSERT_TRUE(registry.Add(e).ok());
  listed = registry.List();
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].revoked, "");
  EXPECT_EQ((*listed)[0].hash, TokenHash("b"));
}

TEST(TokenRegistryTest, NamesAreWhatAReviewerIdMayBe) {
  EXPECT_EQ(CheckTokenName("priya.k@acme-1_x"), "");
  EXPECT_NE(CheckTokenName(""), "");
  EXPECT_NE(CheckTokenName("a b"), "");
  EXPECT_NE(CheckTokenName("quote\""), "");
  EXPECT_NE(CheckTokenName(std::string(65, 'a')), "");
}

}  // namespace
}  // namespace kaizen::store
