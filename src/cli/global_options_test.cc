#include "cli/global_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::cli {
namespace {

using Args = std::vector<std::string>;

TEST(SharedOptionsAfterVerb, OptionsBeforeTheVerbGoAfterItsArguments) {
  EXPECT_EQ(SharedOptionsAfterVerb({"kaizen", "--home", "/h", "--json", "record", "work", "f"}),
            (Args{"kaizen", "record", "work", "f", "--home", "/h", "--json"}));
  EXPECT_EQ(SharedOptionsAfterVerb({"kaizen", "--now=end", "--store", "db", "token", "list"}),
            (Args{"kaizen", "token", "list", "--now=end", "--store", "db"}));
}

TEST(SharedOptionsAfterVerb, ASeparatorKeepsWhatFollowsIt) {
  EXPECT_EQ(SharedOptionsAfterVerb({"kaizen", "--home", "h", "loop", "run", "--", "make", "-j2"}),
            (Args{"kaizen", "loop", "run", "--home", "h", "--", "make", "-j2"}));
}

TEST(SharedOptionsAfterVerb, EverythingElseIsLeftForTheParser) {
  const Args plain = {"kaizen", "stats", "--home", "h"};
  EXPECT_EQ(SharedOptionsAfterVerb(plain), plain);
  const Args unknown = {"kaizen", "--verbose", "--home", "h", "stats"};
  EXPECT_EQ(SharedOptionsAfterVerb(unknown), unknown);
  const Args missing = {"kaizen", "--home"};
  EXPECT_EQ(SharedOptionsAfterVerb(missing), missing);
  EXPECT_EQ(SharedOptionsAfterVerb({"kaizen", "--json", "--version"}),
            (Args{"kaizen", "--version", "--json"}));
}

}  // namespace
}  // namespace kaizen::cli
