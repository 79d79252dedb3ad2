#include "render/artifact.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "base/test_files.h"

namespace kaizen::render {
namespace {

namespace fs = std::filesystem;

class WriteRenderedFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-render");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override { fs::remove_all(home_); }

  std::string Read(const std::string& rel) { return base::test_files::ReadAll(home_ + "/" + rel); }
  ino_t Inode(const std::string& rel) {
    struct stat st {};
    EXPECT_EQ(::stat((home_ + "/" + rel).c_str(), &st), 0);
    return st.st_ino;
  }

  std::string home_;
};

TEST_F(WriteRenderedFilesTest, CreatesNestedDirectoriesAndExactBytes) {
  ASSERT_TRUE(WriteRenderedFiles(home_, {{"prompts/domains/mcp-server.md", "a\nb\n"},
                                         {"memory/x.md", std::string("z\0y", 3)}})
                  .ok());
  EXPECT_EQ(Read("prompts/domains/mcp-server.md"), "a\nb\n");
  EXPECT_EQ(Read("memory/x.md"), std::string("z\0y", 3));
}

TEST_F(WriteRenderedFilesTest, UnchangedFileIsNotRewritten) {
  ASSERT_TRUE(WriteRenderedFiles(home_, {{"prompts/a.md", "same"}, {"prompts/b.md", "old"}}).ok());
  const ino_t a = Inode("prompts/a.md");
  const ino_t b = Inode("prompts/b.md");
  ASSERT_TRUE(WriteRenderedFiles(home_, {{"prompts/a.md", "same"}, {"prompts/b.md", "new"}}).ok());
  // An atomic rewrite renames a new inode into place; an untouched file keeps its inode.
  EXPECT_EQ(Inode("prompts/a.md"), a);
  EXPECT_NE(Inode("prompts/b.md"), b);
  EXPECT_EQ(Read("prompts/b.md"), "new");
}

TEST_F(WriteRenderedFilesTest, PathsLeavingTheHomeAreRefusedBeforeAnythingIsWritten) {
  for (const char* bad : {"../escape.md", "/etc/x.md", "a/../../b.md", "a//b.md", "", "dir/"}) {
    Status s = WriteRenderedFiles(home_, {{"first.md", "x"}, {bad, "y"}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("rendered file path"), std::string::npos) << s.message();
  }
  EXPECT_FALSE(fs::exists(home_ + "/first.md"));
}

TEST_F(WriteRenderedFilesTest, UnwritableHomeIsAnError) {
  ASSERT_TRUE(WriteRenderedFiles(home_, {{"blocker", "file"}}).ok());
  // "blocker" is a file, so "blocker/x.md" cannot be created.
  Status s = WriteRenderedFiles(home_, {{"blocker/x.md", "y"}});
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Read("blocker"), "file");
}

}  // namespace
}  // namespace kaizen::render
