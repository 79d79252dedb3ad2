#include "store/file_system.h"

#include <gtest/gtest.h>

namespace kaizen::store {
namespace {

TEST(DirName, IsTheDirectoryPartOrTheWorkingDirectoryForABareName) {
  EXPECT_EQ(DirName("memory/quality-standards.md"), "memory");
  EXPECT_EQ(DirName("/home/k/.kaizen/AGENTS.md"), "/home/k/.kaizen");
  EXPECT_EQ(DirName("AGENTS.md"), ".");
  EXPECT_EQ(DirName("/AGENTS.md"), "/");
  EXPECT_EQ(DirName("./AGENTS.md"), ".");
}

}  // namespace
}  // namespace kaizen::store
