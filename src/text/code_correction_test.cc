#include "text/code_correction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::text {
namespace {

CorrectionClass C(std::string_view original, std::string_view corrected,
                  std::string_view file = {}) {
  return ClassifyCorrection(original, corrected, file);
}

TEST(CodeOrProse, CodeLinesAreToldFromSentences) {
  EXPECT_TRUE(LooksLikeCode("function parse(input: any) {\n  return JSON.parse(input);\n}"));
  EXPECT_TRUE(LooksLikeCode("const name = user?.profile?.name;"));
  EXPECT_TRUE(LooksLikeCode("def total(prices):\n    return sum(prices)"));
  EXPECT_TRUE(LooksLikeCode("if user is None:"));
  EXPECT_TRUE(LooksLikeCode("```\nmake test\n```"));
  EXPECT_FALSE(LooksLikeCode("Great question! Here is the fix."));
  EXPECT_FALSE(LooksLikeCode("Responsible for leading 10-person engineering team"));
  EXPECT_FALSE(LooksLikeCode("This PR fixes login() for SSO users."));
  EXPECT_FALSE(LooksLikeCode("The function returns null when the user_id is missing."));
  EXPECT_FALSE(LooksLikeCode("Let me know if you have any other questions."));
  EXPECT_FALSE(LooksLikeCode(""));
}

TEST(CodeOrProse, FileExtensionDecidesWhenGiven) {
  EXPECT_EQ(IsCodeFile("src/api/client.ts"), std::optional<bool>(true));
  EXPECT_EQ(IsCodeFile("lib/x.PY"), std::optional<bool>(true));
  EXPECT_EQ(IsCodeFile("docs/guide.md"), std::optional<bool>(false));
  EXPECT_EQ(IsCodeFile("Makefile"), std::nullopt);
  EXPECT_EQ(IsCodeFile(""), std::nullopt);
  EXPECT_TRUE(IsCodeCorrection("retries = 3", "retries = 5", "config/app.py"));
  EXPECT_FALSE(IsCodeCorrection("const x = 1;", "const y = 1;", "notes.md"));
}

TEST(UnsafeTypes, AnyIsUnsafeOnlyInATypePosition) {
  auto markers = [](std::string_view text) {
    std::string out;
    for (const UnsafeTypeMarker& m : FindUnsafeTypeMarkers(text)) {
      out += std::string(m.marker) + "@" + std::to_string(m.offset) + "|";
    }
    return out;
  };
  EXPECT_EQ(markers("function f(a: any, b: any[]) {"), "any@14|any@22|");
  EXPECT_EQ(markers("const p = req.body as any;"), "any@22|");
  EXPECT_EQ(markers("let m: Map<string, any> = new Map();"), "any@19|");
  EXPECT_EQ(markers("// @ts-ignore\nx.y = 1;"), "ts-ignore@3|");
  EXPECT_EQ(markers("x = f()  # type: ignore"), "type: ignore@9|");
  const std::vector<UnsafeTypeMarker> tight = FindUnsafeTypeMarkers("x = f()  #type:ignore");
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_EQ(tight[0].offset + tight[0].length, 21u);  // ends with the text
  EXPECT_EQ(markers("Do you have any questions? Note: any change works. Such as any other."), "");
}

TEST(CodeClassifier, AnyToUnknownIsTypeSafetyNotTone) {
  CorrectionClass c = C("function parse(input: any) {", "function parse(input: unknown) {");
  EXPECT_EQ(c.type, "type_safety");
  EXPECT_DOUBLE_EQ(c.confidence, 0.90);
  EXPECT_EQ(c.reasons.at(0), "removed the unsafe type marker 'any'");
  EXPECT_EQ(C("x: any", "x: unknown").type, "type_safety");
  EXPECT_EQ(C("// @ts-ignore\nconst n = a.b;", "const n = a.b;").type, "type_safety");
}

TEST(CodeClassifier, AConsistentRenameIsNaming) {
  CorrectionClass c = C("const usr = await db.find(id);\nreturn usr.name;",
                        "const user = await db.find(id);\nreturn user.name;");
  EXPECT_EQ(c.type, "naming");
  EXPECT_EQ(c.reasons.at(0), "renamed 'usr' to 'user' everywhere");
  // Renamed in one place only: the old name is still used, so it is not a rename.
  EXPECT_NE(
      C("const usr = find(id);\nreturn usr.name;", "const user = find(id);\nreturn usr.name;").type,
      "naming");
}

TEST(CodeClassifier, AddedChecksAreNullOrErrorHandling) {
  EXPECT_EQ(
      C("const name = user.profile.name;", "const name = user?.profile?.name ?? \"anon\";").type,
      "null_handling");
  EXPECT_EQ(C("return order.customer.id;",
              "if (order.customer == null) return null;\nreturn order.customer.id;")
                .type,
            "null_handling");
  EXPECT_EQ(C("data := load(path)\nuse(data)",
              "data, err := load(path)\nif err != nil {\n  return err\n}\nuse(data)", "main.go")
                .type,
            "error_handling");
  EXPECT_EQ(
      C("const r = await fetch(u);", "try {\n  const r = await fetch(u);\n} catch (e) {}").type,
      "error_handling");
}

TEST(CodeClassifier, LinesOnlyRemovedIsDeadCodeOtherwiseAWeakGuess) {
  EXPECT_EQ(C("const a = 1;\nconst unused = 2;\nreturn a;", "const a = 1;\nreturn a;").type,
            "dead_code");
  // A human edit that deleted the agent's code is dead code even when the code had an `any`; one
  // that deleted only `// @ts-ignore` is a type fix.
  EXPECT_EQ(C("function f(x: any) {\n  return x;\n}", "", "src/f.ts").type, "dead_code");
  EXPECT_EQ(C("// @ts-ignore\nconst n = a.b;", "const n = a.b;", "src/n.ts").type, "type_safety");
  CorrectionClass fix = C("retries = 3\nwait(retries)", "retries = 5\nwait(retries)", "a.py");
  EXPECT_EQ(fix.type, "code_fix");
  EXPECT_LT(fix.confidence, 0.5);
}

TEST(CodeClassifier, ProseKeepsTheProseRules) {
  EXPECT_EQ(C("Great question! Here is the fix.", "Here is the fix.").type, "tone_mismatch");
  EXPECT_EQ(C("Responsible for hiring", "Hired 6 engineers").type, "passive_to_active");
}

TEST(CodeClassifier, HostileInputsDoNotCrash) {
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "x: any;\n";
  EXPECT_EQ(C(big, "x: unknown;").type, "type_safety");
  EXPECT_FALSE(C("\xff{;", "\xfe};", "a.ts").type.empty());
  std::string fence(70000, '`');
  EXPECT_FALSE(C(fence, fence + "a").type.empty());
}

}  // namespace
}  // namespace kaizen::text
