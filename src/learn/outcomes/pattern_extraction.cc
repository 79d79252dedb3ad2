#include "learn/outcomes/pattern_extraction.h"

#include <array>

#include "text/ascii_case.h"

namespace kaizen::learn {
namespace {

// Indices into kDetectedStrategies.
enum Strategy : uint8_t {
  kFileType,
  kComponent,
  kLayer,
  kFeature,
  kOneFilePerSubtask,
  kSharedTypesFirst,
  kSeparateApiRoutes,
  kTestsAlongside,
  kTestsSeparate,
  kParallel,
  kSequential,
  kDependencyChain,
};

// A phrase is lowercase ASCII. In it, ' ' matches one or more separators (whitespace, '-', '_')
// and '*' matches any run of letters and digits ("parallel*" = parallelize, parallelism...).
// A phrase must start at a word start and may end inside a word ("by component" matches "by
// components"). `after_split` phrases count only after a splitting word (see the header).
struct Rule {
  Strategy strategy;
  bool after_split;
  std::string_view phrase;
};

constexpr Rule kRules[] = {
    {kFileType, true, "by file type"},
    {kFileType, true, "by filetype"},
    {kFileType, true, "by file extension"},
    {kFileType, true, "by type of file"},
    {kFileType, true, "per file type"},
    {kFileType, false, "file based split"},
    {kFileType, false, "file based decomposition"},
    {kFileType, false, "file based breakdown"},
    {kFileType, false, "file type based"},
    {kFileType, false, "file type split"},

    {kComponent, true, "by component"},
    {kComponent, true, "per component"},
    {kComponent, true, "into component"},
    {kComponent, true, "along component"},
    {kComponent, false, "component based split"},
    {kComponent, false, "component based decomposition"},
    {kComponent, false, "component by component"},

    {kLayer, true, "by layer"},
    {kLayer, true, "per layer"},
    {kLayer, true, "into layers"},
    {kLayer, true, "by architectural layer"},
    {kLayer, true, "along layer"},
    {kLayer, false, "layer based split"},
    {kLayer, false, "layer based decomposition"},
    {kLayer, false, "layer by layer"},
    {kLayer, false, "ui/logic/data"},
    {kLayer, false, "ui / logic / data"},
    {kLayer, false, "ui, logic and data"},
    {kLayer, false, "ui, logic, data"},
    {kLayer, false, "ui, logic, and data"},

    {kFeature, true, "by feature"},
    {kFeature, true, "per feature"},
    {kFeature, true, "into features"},
    {kFeature, true, "along feature"},
    {kFeature, false, "feature based split"},
    {kFeature, false, "feature based decomposition"},
    {kFeature, false, "feature by feature"},
    {kFeature, false, "vertical slice"},

    {kOneFilePerSubtask, false, "one file per subtask"},
    {kOneFilePerSubtask, false, "one file per task"},
    {kOneFilePerSubtask, false, "a file per subtask"},
    {kOneFilePerSubtask, false, "a single file per subtask"},
    {kOneFilePerSubtask, false, "single file per subtask"},
    {kOneFilePerSubtask, false, "single file per task"},
    {kOneFilePerSubtask, false, "each subtask owns one file"},
    {kOneFilePerSubtask, false, "each subtask owns a single file"},
    {kOneFilePerSubtask, false, "each subtask touches one file"},
    {kOneFilePerSubtask, false, "each subtask touches a single file"},
    {kOneFilePerSubtask, false, "each subtask gets one file"},

    {kSharedTypesFirst, false, "shared types first"},
    {kSharedTypesFirst, false, "shared type first"},
    {kSharedTypesFirst, false, "types first"},
    {kSharedTypesFirst, false, "common types first"},
    {kSharedTypesFirst, false, "shared types up front"},
    {kSharedTypesFirst, false, "shared types before"},
    {kSharedTypesFirst, false, "start with shared types"},
    {kSharedTypesFirst, false, "start with the shared types"},
    {kSharedTypesFirst, false, "handle shared types"},
    {kSharedTypesFirst, false, "define shared types"},
    {kSharedTypesFirst, false, "define the shared types"},

    {kSeparateApiRoutes, false, "separate api route"},
    {kSeparateApiRoutes, false, "separate api endpoint"},
    {kSeparateApiRoutes, false, "separate subtask for api"},
    {kSeparateApiRoutes, false, "separate subtask for the api"},
    {kSeparateApiRoutes, false, "separate subtask for each api"},
    {kSeparateApiRoutes, false, "api routes separately"},
    {kSeparateApiRoutes, false, "api routes in separate"},
    {kSeparateApiRoutes, false, "api routes as separate"},
    {kSeparateApiRoutes, false, "api routes in their own"},
    {kSeparateApiRoutes, false, "api endpoints separately"},
    {kSeparateApiRoutes, false, "split api routes"},
    {kSeparateApiRoutes, false, "split the api routes"},
    {kSeparateApiRoutes, false, "each api route"},
    {kSeparateApiRoutes, false, "one subtask per route"},
    {kSeparateApiRoutes, false, "one subtask per api route"},
    {kSeparateApiRoutes, false, "one subtask per endpoint"},

    {kTestsAlongside, false, "tests alongside"},
    {kTestsAlongside, false, "test alongside"},
    {kTestsAlongside, false, "testing alongside"},
    {kTestsAlongside, false, "tests with the implementation"},
    {kTestsAlongside, false, "tests with implementation"},
    {kTestsAlongside, false, "tests with their implementation"},
    {kTestsAlongside, false, "tests with the code"},
    {kTestsAlongside, false, "tests together with"},
    {kTestsAlongside, false, "tests next to"},
    {kTestsAlongside, false, "tests in the same subtask"},
    {kTestsAlongside, false, "tests in the same task"},
    {kTestsAlongside, false, "tests as part of each subtask"},
    {kTestsAlongside, false, "tests as part of the same"},
    {kTestsAlongside, false, "implementation and tests together"},
    {kTestsAlongside, false, "implementation and its tests"},
    {kTestsAlongside, false, "code and tests together"},

    {kTestsSeparate, false, "tests in separate subtask"},
    {kTestsSeparate, false, "tests in a separate subtask"},
    {kTestsSeparate, false, "tests in a separate task"},
    {kTestsSeparate, false, "tests in their own subtask"},
    {kTestsSeparate, false, "tests in a dedicated subtask"},
    {kTestsSeparate, false, "tests as a separate subtask"},
    {kTestsSeparate, false, "tests as a separate task"},
    {kTestsSeparate, false, "separate test subtask"},
    {kTestsSeparate, false, "separate testing subtask"},
    {kTestsSeparate, false, "separate subtask for tests"},
    {kTestsSeparate, false, "separate subtask for testing"},
    {kTestsSeparate, false, "separate task for tests"},
    {kTestsSeparate, false, "dedicated test subtask"},
    {kTestsSeparate, false, "dedicated testing subtask"},
    {kTestsSeparate, false, "test subtask"},
    {kTestsSeparate, false, "testing subtask"},

    {kParallel, false, "maximize parallel*"},
    {kParallel, false, "maximise parallel*"},
    {kParallel, false, "maximum parallel*"},
    {kParallel, false, "maximal parallel*"},
    {kParallel, false, "max parallel*"},
    {kParallel, false, "parallelize"},
    {kParallel, false, "parallelise"},
    {kParallel, false, "parallelization"},
    {kParallel, false, "parallelisation"},
    {kParallel, false, "parallelizable"},
    {kParallel, false, "parallelisable"},
    {kParallel, false, "in parallel"},
    {kParallel, false, "parallel subtask"},
    {kParallel, false, "parallel task"},
    {kParallel, false, "parallel execution"},
    {kParallel, false, "run concurrently"},
    {kParallel, false, "runs concurrently"},

    {kSequential, false, "sequential"},  // also sequentially
    {kSequential, false, "in sequence"},
    {kSequential, false, "one after another"},
    {kSequential, false, "one after the other"},
    {kSequential, false, "one at a time"},
    {kSequential, false, "serially"},
    {kSequential, false, "serial execution"},

    {kDependencyChain, false, "dependency chain"},
    {kDependencyChain, false, "dependency order"},
    {kDependencyChain, false, "chain of dependencies"},
    {kDependencyChain, false, "respect* dependencies"},
    {kDependencyChain, false, "respect* the dependencies"},
    {kDependencyChain, false, "respect* dependency"},
    {kDependencyChain, false, "follow* the dependencies"},
    {kDependencyChain, false, "follow* dependencies"},
    {kDependencyChain, false, "dependencies first"},
    {kDependencyChain, false, "topological order"},
    {kDependencyChain, false, "topologically"},
};

constexpr size_t kRuleCount = sizeof(kRules) / sizeof(kRules[0]);

// The rules grouped by the first two characters of their phrase, so a word start tries only
// the few rules that can match there. A bucket is a letter and then a letter or a separator.
constexpr int kSecondKinds = 27;  // 'a'..'z', separator
constexpr int kBuckets = 26 * kSecondKinds;

constexpr int SecondKind(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  return c == ' ' ? 26 : -1;
}

struct RuleIndex {
  std::array<uint8_t, kRuleCount> order{};
  std::array<uint16_t, kBuckets + 1> begin{};  // bucket b is order[begin[b]..begin[b + 1])
};

constexpr int BucketOf(std::string_view phrase) {
  return (phrase[0] - 'a') * kSecondKinds + SecondKind(phrase[1]);
}

// A counting sort of the rules by bucket, stable by rule number: linear, so compilers evaluate
// it well within their constexpr step limits.
constexpr RuleIndex BuildRuleIndex() {
  RuleIndex index;
  for (size_t r = 0; r < kRuleCount; ++r) ++index.begin[BucketOf(kRules[r].phrase) + 1];
  for (int b = 0; b < kBuckets; ++b) index.begin[b + 1] += index.begin[b];
  std::array<uint16_t, kBuckets> next{};
  for (int b = 0; b < kBuckets; ++b) next[b] = index.begin[b];
  for (size_t r = 0; r < kRuleCount; ++r) {
    index.order[next[BucketOf(kRules[r].phrase)]++] = static_cast<uint8_t>(r);
  }
  return index;
}

constexpr RuleIndex kRuleIndex = BuildRuleIndex();
static_assert(kRuleIndex.begin[kBuckets] == kRuleCount,
              "every phrase starts with a lowercase letter, then a letter or a space");
static_assert(kRuleCount < 256, "RuleIndex stores rule numbers in uint8_t");

// Words that make a following "by <dimension>" a decomposition strategy (matched as prefixes).
constexpr std::string_view kSplitWords[] = {"split", "divid",   "decompos", "partition", "break",
                                            "slic",  "separat", "chunk",    "task",      "subtask"};
constexpr size_t kSplitLookback = 4;  // words

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsSeparator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '_';
}

bool MatchAt(std::string_view text, size_t t, std::string_view phrase) {
  for (char pc : phrase) {
    if (pc == ' ') {
      if (t >= text.size() || !IsSeparator(text[t])) return false;
      while (t < text.size() && IsSeparator(text[t])) ++t;
    } else if (pc == '*') {
      while (t < text.size() && IsAlnum(text[t])) ++t;
    } else {
      if (t >= text.size() || text::LowerAscii(text[t]) != pc) return false;
      ++t;
    }
  }
  return true;
}

bool StartsWithLower(std::string_view word, std::string_view prefix) {
  if (word.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (text::LowerAscii(word[i]) != prefix[i]) return false;
  }
  return true;
}

bool IsSplitWord(std::string_view word) {
  for (std::string_view w : kSplitWords) {
    if (StartsWithLower(word, w)) return true;
  }
  return false;
}

// The last kSplitLookback words before the current position.
class RecentWords {
 public:
  void Push(std::string_view word) { words_[next_++ % kSplitLookback] = word; }
  bool AnySplitWord() const {
    for (std::string_view w : words_) {
      if (!w.empty() && IsSplitWord(w)) return true;
    }
    return false;
  }

 private:
  std::array<std::string_view, kSplitLookback> words_{};
  size_t next_ = 0;
};

}  // namespace

uint16_t DetectStrategies(std::string_view text) {
  uint16_t found = 0;
  RecentWords recent;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsAlnum(text[i])) {
      ++i;
      continue;
    }
    // text[i] starts a word.
    const char first = text::LowerAscii(text[i]);
    const char second = i + 1 < text.size() ? text[i + 1] : '\0';
    const int kind = IsSeparator(second) ? 26 : SecondKind(text::LowerAscii(second));
    if (first >= 'a' && first <= 'z' && kind >= 0) {
      const int b = (first - 'a') * kSecondKinds + kind;
      for (int k = kRuleIndex.begin[b]; k < kRuleIndex.begin[b + 1]; ++k) {
        const Rule& rule = kRules[kRuleIndex.order[k]];
        const auto bit = static_cast<uint16_t>(1u << rule.strategy);
        if ((found & bit) != 0 || !MatchAt(text, i, rule.phrase)) continue;
        if (rule.after_split && !recent.AnySplitWord()) continue;
        found |= bit;
      }
    }
    size_t end = i;
    while (end < text.size() && IsAlnum(text[end])) ++end;
    recent.Push(text.substr(i, end - i));
    i = end;
  }
  return found;
}

std::vector<std::string> ExtractPatterns(std::string_view description) {
  const uint16_t found = DetectStrategies(description);
  std::vector<std::string> out;
  for (size_t s = 0; s < kDetectedStrategies.size(); ++s) {
    if ((found & (1u << s)) != 0) out.emplace_back(kDetectedStrategies[s]);
  }
  return out;
}

}  // namespace kaizen::learn
