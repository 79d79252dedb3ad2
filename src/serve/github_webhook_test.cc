#include "serve/github_webhook.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace kaizen::serve {
namespace {

// GitHub's documented example ("Validating webhook deliveries"): this secret and payload give
// this X-Hub-Signature-256.
constexpr std::string_view kSecret = "It's a Secret to Everybody";
constexpr std::string_view kBody = "Hello, World!";
constexpr std::string_view kHeader =
    "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

TEST(GithubWebhook, SignatureMatchesGithubsDocumentedExample) {
  EXPECT_EQ(GithubSignature(kBody, kSecret), kHeader);
  EXPECT_TRUE(GithubSignatureValid(kBody, kHeader, kSecret));
}

TEST(GithubWebhook, UpperCaseHexIsTheSameSignature) {
  std::string upper(kHeader);
  for (size_t i = 7; i < upper.size(); ++i) upper[i] = static_cast<char>(std::toupper(upper[i]));
  EXPECT_TRUE(GithubSignatureValid(kBody, upper, kSecret));
}

TEST(GithubWebhook, WrongSecretBodyOrMalformedHeaderIsRefused) {
  EXPECT_FALSE(GithubSignatureValid(kBody, kHeader, "another secret"));
  EXPECT_FALSE(GithubSignatureValid("Hello, World?", kHeader, kSecret));
  EXPECT_FALSE(GithubSignatureValid(kBody, "", kSecret));
  EXPECT_FALSE(GithubSignatureValid(kBody, kHeader.substr(7), kSecret));  // no "sha256="
  EXPECT_FALSE(GithubSignatureValid(kBody, kHeader.substr(0, kHeader.size() - 2), kSecret));
  EXPECT_FALSE(GithubSignatureValid(kBody, std::string(kHeader) + "00", kSecret));
  std::string not_hex(kHeader);
  not_hex.back() = 'g';
  EXPECT_FALSE(GithubSignatureValid(kBody, not_hex, kSecret));
}

class GithubSecretFile : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = ::testing::TempDir() + "kz-github-secret-" + std::to_string(::getpid());
    std::filesystem::create_directories(home_ + "/config");
  }
  void TearDown() override { std::filesystem::remove_all(home_); }
  void Write(const std::string& text, mode_t mode) {
    const std::string path = home_ + "/" + std::string(kGithubSecretFile);
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
  }
  std::string home_;
};

TEST_F(GithubSecretFile, NoFileAndNoVariableIsNoSecret) {
  auto s = LoadGithubSecret(home_, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_FALSE(s->has_value());
}

TEST_F(GithubSecretFile, VariableWinsOverTheFile) {
  Write("from file\n", 0600);
  auto s = LoadGithubSecret(home_, "from env");
  ASSERT_TRUE(s.ok() && s->has_value());
  EXPECT_EQ((*s)->value, "from env");
}

TEST_F(GithubSecretFile, OnlyTheTrailingNewlineIsTrimmed) {
  Write(" spaced secret \n", 0600);
  auto s = LoadGithubSecret(home_, nullptr);
  ASSERT_TRUE(s.ok() && s->has_value()) << s.status().message();
  EXPECT_EQ((*s)->value, " spaced secret ");
}

TEST_F(GithubSecretFile, FileReadableByOthersIsRefusedNamingTheFix) {
  Write("secret\n", 0644);
  auto s = LoadGithubSecret(home_, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("chmod 600"), std::string::npos) << s.status().message();
}

TEST_F(GithubSecretFile, EmptyFileIsRefused) {
  Write("\n", 0600);
  auto s = LoadGithubSecret(home_, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("is empty"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::serve
