#include "home/token.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace kaizen::home {
namespace {

class TokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kaizen-token-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    home_ = std::string(tmpl) + "/home";  // does not exist yet: the first start creates it
  }
  void TearDown() override { std::system(("rm -rf " + home_.substr(0, home_.rfind('/'))).c_str()); }
  std::string TokenPath() const { return home_ + "/config/token"; }
  std::string home_;
};

TEST_F(TokenTest, FirstStartCreatesA64HexTokenFileWithMode0600) {
  auto token = LoadOrCreateToken(home_, nullptr);
  ASSERT_TRUE(token.ok()) << token.status().message();
  EXPECT_TRUE(token->created);
  EXPECT_EQ(token->path, TokenPath());
  ASSERT_EQ(token->value.size(), 64u);
  EXPECT_EQ(token->value.find_first_not_of("0123456789abcdef"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(TokenPath().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST_F(TokenTest, SecondStartReadsTheSameTokenAndDoesNotPrintIt) {
  auto first = LoadOrCreateToken(home_, nullptr);
  ASSERT_TRUE(first.ok());
  auto second = LoadOrCreateToken(home_, "");
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->created);
  EXPECT_EQ(second->value, first->value);
}

TEST_F(TokenTest, TwoHomesGetDifferentTokens) {
  auto a = LoadOrCreateToken(home_, nullptr);
  auto b = LoadOrCreateToken(home_ + "2", nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->value, b->value);
  std::system(("rm -rf " + home_ + "2").c_str());
}

TEST_F(TokenTest, EnvironmentTokenWinsAndCreatesNoFile) {
  auto token = LoadOrCreateToken(home_, " s3cret\n");
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(token->value, "s3cret");
  EXPECT_TRUE(token->path.empty());
  EXPECT_NE(::access(TokenPath().c_str(), F_OK), 0);
}

// A client of the home's server reads the token the server checks, and never makes one.
TEST_F(TokenTest, LoadTokenReadsTheServersTokenAndCreatesNone) {
  auto none = LoadToken(home_, nullptr);
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound);
  EXPECT_NE(::access(home_.c_str(), F_OK), 0);
  auto created = LoadOrCreateToken(home_, nullptr);
  ASSERT_TRUE(created.ok());
  auto read = LoadToken(home_, nullptr);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->value, created->value);
  EXPECT_FALSE(read->created);
  EXPECT_EQ(LoadToken(home_, " other\n")->value, "other");
}

TEST_F(TokenTest, TokenFileReadableByOthersIsRefusedWithItsModeAndTheFix) {
  ASSERT_TRUE(LoadOrCreateToken(home_, nullptr).ok());
  ASSERT_EQ(::chmod(TokenPath().c_str(), 0644), 0);
  auto token = LoadOrCreateToken(home_, nullptr);
  ASSERT_FALSE(token.ok());
  EXPECT_EQ(token.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(token.status().message().find("0644"), std::string::npos);
  EXPECT_NE(token.status().message().find("chmod 600"), std::string::npos);
}

TEST_F(TokenTest, EmptyTokenFileIsRefused) {
  ASSERT_TRUE(LoadOrCreateToken(home_, nullptr).ok());
  std::ofstream(TokenPath(), std::ios::trunc) << "\n";
  auto token = LoadOrCreateToken(home_, nullptr);
  ASSERT_FALSE(token.ok());
  EXPECT_NE(token.status().message().find("empty"), std::string::npos);
}

TEST(CheckBearerTest, RightTokenPasses) {
  EXPECT_EQ(CheckBearer("Bearer abc123", "abc123"), TokenCheck::kOk);
  EXPECT_EQ(CheckBearer("bearer  abc123 ", "abc123"), TokenCheck::kOk);
}

TEST(CheckBearerTest, WrongTokenOrPrefixOfItIsWrong) {
  EXPECT_EQ(CheckBearer("Bearer abc124", "abc123"), TokenCheck::kWrong);
  EXPECT_EQ(CheckBearer("Bearer abc12", "abc123"), TokenCheck::kWrong);
  EXPECT_EQ(CheckBearer("Bearer abc1234", "abc123"), TokenCheck::kWrong);
}

TEST(CheckBearerTest, AbsentEmptyOrOtherSchemeIsMissing) {
  EXPECT_EQ(CheckBearer("", "abc123"), TokenCheck::kMissing);
  EXPECT_EQ(CheckBearer("Bearer ", "abc123"), TokenCheck::kMissing);
  EXPECT_EQ(CheckBearer("Basic YWJjOjEyMw==", "abc123"), TokenCheck::kMissing);
  EXPECT_EQ(CheckBearer("abc123", "abc123"), TokenCheck::kMissing);
}

}  // namespace
}  // namespace kaizen::home
