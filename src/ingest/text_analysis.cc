#include "ingest/text_analysis.h"

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kaizen::ingest {
namespace {

// ---------------------------------------------------------------------------------------------
// Tokenizing. Every function below sees text as a sequence of lowercase words with "break"
// markers (an empty string_view) where a sentence or clause ends, so that phrases and negation do
// not reach across "Looks good. Not sure about retries".

enum class ByteClass { kWord, kSeparator, kBreak };

struct Classified {
  ByteClass cls;
  size_t len;  // bytes consumed, >= 1 so every loop advances
};

bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool IsAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ToLowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerAscii(c);
  return out;
}

// Non-ASCII bytes count as word bytes so "café" stays one word and invalid UTF-8 needs no special
// case; the exceptions are the common typographic separators reviewers paste from editors
// (curly quotes, dashes, bullets, ellipsis in U+2000..U+203F; no-break space; guillemets), which
// would otherwise glue `“tests”` into one word.
Classified ClassifyNonAscii(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const size_t n = s.size();
  if (c == 0xE2 && i + 2 < n && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
      (static_cast<unsigned char>(s[i + 2]) & 0xC0) == 0x80) {
    const bool ellipsis = static_cast<unsigned char>(s[i + 2]) == 0xA6;  // U+2026
    return {ellipsis ? ByteClass::kBreak : ByteClass::kSeparator, 3};
  }
  if (c == 0xC2 && i + 1 < n) {
    const auto d = static_cast<unsigned char>(s[i + 1]);
    if (d == 0xA0 || d == 0xAB || d == 0xBB) return {ByteClass::kSeparator, 2};
  }
  return {ByteClass::kWord, 1};
}

bool IsWordAt(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return IsAsciiAlnum(c);
  return ClassifyNonAscii(s, i).cls == ByteClass::kWord;
}

// A terminator only ends a sentence before a non-word byte or the end, which keeps "foo.bar()",
// "1.5" and "node.js" whole.
bool EndsSentenceAt(std::string_view s, size_t i) {
  return i + 1 >= s.size() || !IsWordAt(s, i + 1);
}

Classified ClassifyAt(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c >= 0x80) return ClassifyNonAscii(s, i);
  if (IsAsciiAlnum(c)) return {ByteClass::kWord, 1};
  if (c == '\n' || c == '\r') return {ByteClass::kBreak, 1};
  if (c == '.' || c == '!' || c == '?' || c == ';' || c == ':' || c == ',') {
    return {EndsSentenceAt(s, i) ? ByteClass::kBreak : ByteClass::kSeparator, 1};
  }
  return {ByteClass::kSeparator, 1};
}

// Appends the words of `lowered` to `out`, with one empty view per run of breaks. Views point
// into `lowered`, which must outlive them.
void Tokenize(std::string_view lowered, std::vector<std::string_view>* out) {
  size_t i = 0;
  size_t word_start = std::string_view::npos;
  const auto push_break = [out] {
    if (!out->empty() && !out->back().empty()) out->push_back({});
  };
  while (i < lowered.size()) {
    const Classified k = ClassifyAt(lowered, i);
    if (k.cls == ByteClass::kWord) {
      if (word_start == std::string_view::npos) word_start = i;
    } else {
      if (word_start != std::string_view::npos) {
        out->push_back(lowered.substr(word_start, i - word_start));
        word_start = std::string_view::npos;
      }
      if (k.cls == ByteClass::kBreak) push_break();
    }
    i += k.len;
  }
  if (word_start != std::string_view::npos) out->push_back(lowered.substr(word_start));
}

// True when `phrase` (non-empty, no breaks) occurs as consecutive words of `tokens`.
bool ContainsPhrase(const std::vector<std::string_view>& tokens,
                    const std::vector<std::string_view>& phrase) {
  if (phrase.empty() || phrase.size() > tokens.size()) return false;
  const size_t last = tokens.size() - phrase.size();
  for (size_t i = 0; i <= last; ++i) {
    size_t j = 0;
    while (j < phrase.size() && tokens[i + j] == phrase[j]) ++j;
    if (j == phrase.size()) return true;
  }
  return false;
}

// Splits a keyword into its words, reusing the caller's buffers so matching a whole taxonomy
// allocates nothing once they have grown.
void KeywordWords(std::string_view keyword, std::string* lowered,
                  std::vector<std::string_view>* words) {
  lowered->assign(keyword);
  for (char& c : *lowered) c = LowerAscii(c);
  words->clear();
  Tokenize(*lowered, words);
  std::erase_if(*words, [](std::string_view w) { return w.empty(); });
}

// The first word of `keyword`, lowercased (into `buffer` only when it has uppercase letters): a
// cheap pre-check, since most keywords of a taxonomy do not occur in a given text.
std::string_view FirstWord(std::string_view keyword, std::string* buffer) {
  size_t i = 0;
  while (i < keyword.size()) {
    const Classified k = ClassifyAt(keyword, i);
    if (k.cls == ByteClass::kWord) break;
    i += k.len;
  }
  size_t j = i;
  while (j < keyword.size()) {
    const Classified k = ClassifyAt(keyword, j);
    if (k.cls != ByteClass::kWord) break;
    j += k.len;
  }
  const std::string_view word = keyword.substr(i, j - i);
  if (std::none_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    return word;
  }
  buffer->assign(word);
  for (char& c : *buffer) c = LowerAscii(c);
  return *buffer;
}

// ---------------------------------------------------------------------------------------------
// Default taxonomy. Keywords are phrased the way reviewers write in "liked"/"disliked"/notes;
// deliberately absent are words that are common in ordinary prose and would produce noise
// ("type", "name", "example", "fast" as in "fail fast", "any").

ThemeTaxonomy BuildDefault() {
  ThemeTaxonomy t;
  // One theme per paragraph reads better than the formatter's column packing.
  // clang-format off
  t.themes = {
      {"error-handling",
       {"error handling", "error handler", "handle errors", "handles errors", "handle the error",
        "error types", "error type", "error message", "error messages", "error codes", "exception",
        "exceptions", "try catch", "catch block", "unhandled", "swallow", "swallows", "swallowed",
        "graceful", "gracefully", "failure mode", "failure modes", "retry logic",
        "propagate errors", "panic"}},
      {"input-validation",
       {"input validation", "validation", "validate", "validates", "validated", "validating",
        "unvalidated", "sanitize", "sanitise", "sanitized", "sanitization", "user input",
        "untrusted input", "invalid input", "malformed", "bounds check", "bounds checking",
        "null check", "null checks", "nil check", "range check", "check the input"}},
      {"naming",
       {"naming", "names", "variable names", "variable name", "function name", "function names",
        "method name", "rename", "renamed", "renaming", "identifier", "identifiers",
        "naming convention", "camelcase", "camel case", "snake case", "misleading name",
        "descriptive", "abbreviation", "abbreviations", "abbreviated", "single letter"}},
      {"tests-and-edge-cases",
       {"test", "tests", "testing", "tested", "untested", "unit test", "unit tests",
        "integration test", "integration tests", "test coverage", "coverage", "edge case",
        "edge cases", "corner case", "corner cases", "boundary conditions", "regression",
        "assertion", "assertions", "fixture", "fixtures", "mock", "mocks", "flaky"}},
      {"documentation",
       {"documentation", "docs", "doc", "docstring", "docstrings", "document", "documented",
        "undocumented", "comment", "comments", "commented", "readme", "changelog", "jsdoc",
        "javadoc", "doxygen", "api docs", "inline comments", "explanation"}},
      {"rate-limiting",
       {"rate limiting", "rate limit", "rate limits", "rate limited", "rate limiter", "ratelimit",
        "ratelimiting", "throttle", "throttling", "throttled", "429", "too many requests", "quota",
        "quotas", "token bucket", "leaky bucket", "backpressure", "back pressure",
        "requests per second"}},
      {"retries",
       {"retry", "retries", "retrying", "retried", "retry logic", "retry policy", "re-try",
        "exponential backoff", "backoff", "back off", "jitter", "idempotent", "idempotency",
        "transient", "circuit breaker", "max attempts", "timeout", "timeouts"}},
      {"security",
       {"security", "secure", "insecure", "vulnerability", "vulnerabilities", "vulnerable",
        "injection", "sql injection", "xss", "csrf", "authentication", "authorization", "auth",
        "secret", "secrets", "credentials", "password", "passwords", "api key", "api keys",
        "encryption", "signature verification", "verify the signature", "hmac", "permissions"}},
      {"performance",
       {"performance", "slow", "slower", "faster", "latency", "throughput", "memory", "allocation",
        "allocations", "o(n^2)", "quadratic", "n+1", "cache", "caching", "cached", "inefficient",
        "efficient", "efficiency", "optimize", "optimise", "optimization", "bottleneck", "hot path",
        "benchmark", "blocking"}},
      {"types",
       {"type safety", "type safe", "type-safe", "typed", "untyped", "typing", "type hints",
        "type hint", "type annotations", "type annotation", "type checking", "type checker",
        "typescript", "generics", "cast", "casts", "casting", "any type", "implicit any", "enum",
        "enums", "nullable", "static types", "mypy"}},
      {"architecture",
       {"architecture", "coupling", "tightly coupled", "decouple", "decoupled",
        "separation of concerns", "abstraction", "abstractions", "layering", "layer", "layers",
        "dependency injection", "god object", "god class", "monolith", "modular", "modularity",
        "single responsibility", "refactor", "refactoring", "design"}},
      {"readability",
       {"readability", "readable", "unreadable", "hard to read", "easy to read", "hard to follow",
        "easy to follow", "confusing", "convoluted", "nested", "nesting", "magic number",
        "magic numbers", "dead code", "duplication", "duplicated", "simplify", "complex",
        "complexity", "verbose", "formatting", "clean code", "long function"}},
      {"logging",
       {"logging", "log", "logs", "logged", "log level", "metrics", "tracing", "observability",
        "monitoring", "telemetry", "stack trace", "print statements", "debug output"}},
      {"concurrency",
       {"concurrency", "concurrent", "race condition", "race conditions", "data race", "deadlock",
        "thread safety", "thread safe", "thread-safe", "mutex", "lock", "locking", "atomic",
        "async", "await", "synchronization"}},
  };
  // clang-format on
  return t;
}

// ---------------------------------------------------------------------------------------------
// Sentiment lexicon, kept alphabetical for review. Merged into one hash map on first use so each
// word costs one lookup.

constexpr std::string_view kPositiveWords[] = {
    "appreciate", "appreciated", "awesome",  "beautiful",  "best",      "careful",
    "clean",      "cleaner",     "cleanly",  "clear",      "clearer",   "comprehensive",
    "concise",    "consistent",  "correct",  "easy",       "efficient", "elegant",
    "excellent",  "fantastic",   "good",     "great",      "helpful",   "idiomatic",
    "impressive", "intuitive",   "lgtm",     "love",       "loved",     "maintainable",
    "neat",       "nice",        "nicely",   "perfect",    "pleasant",  "readable",
    "reliable",   "robust",      "simple",   "smart",      "solid",     "straightforward",
    "thank",      "thanks",      "thorough", "thoughtful", "tidy",      "useful",
    "wonderful",  "worked",      "works",
};

constexpr std::string_view kNegativeWords[] = {
    "annoying",       "awful",        "bad",       "bloated",      "brittle",
    "broken",         "bug",          "buggy",     "bugs",         "careless",
    "clunky",         "complicated",  "confused",  "confusing",    "convoluted",
    "crash",          "crashed",      "crashes",   "cryptic",      "difficult",
    "duplicated",     "fail",         "failed",    "failing",      "fails",
    "failure",        "flaky",        "forgot",    "forgotten",    "fragile",
    "hacky",          "hard",         "horrible",  "ignored",      "ignores",
    "incomplete",     "inconsistent", "incorrect", "inefficient",  "insecure",
    "issue",          "issues",       "lack",      "lacking",      "lacks",
    "leak",           "leaks",        "leaky",     "mess",         "messy",
    "misleading",     "missing",      "noisy",     "obscure",      "overcomplicated",
    "overengineered", "poor",         "poorly",    "problem",      "problematic",
    "problems",       "prone",        "redundant", "sloppy",       "slow",
    "terrible",       "ugly",         "unclear",   "undocumented", "unhandled",
    "unnecessary",    "unreadable",   "unsafe",    "untested",     "useless",
    "verbose",        "vulnerable",   "weird",     "worse",        "worst",
    "wrong",
};

// Also every word ending in "n't" (tokenized as "...n" + "t"), handled in IsNegator.
constexpr std::string_view kNegators[] = {
    "aint",    "arent",    "barely", "cannot", "cant",    "couldnt", "didnt",
    "doesnt",  "dont",     "hadnt",  "hardly", "hasnt",   "havent",  "isnt",
    "neither", "never",    "no",     "none",   "nor",     "not",     "nothing",
    "nowhere", "shouldnt", "wasnt",  "werent", "without", "wont",    "wouldnt",
};

constexpr std::string_view kIntensifiers[] = {
    "absolutely", "completely", "especially", "extremely", "highly", "incredibly", "really",
    "seriously",  "so",         "super",      "totally",   "truly",  "very",
};

constexpr std::string_view kDowntoners[] = {
    "bit", "fairly", "kinda", "marginally", "slightly", "somewhat",
};

// Words that start a new clause: "not great, but solid" must not negate "solid".
constexpr std::string_view kClauseWords[] = {
    "although", "but", "except", "however", "though", "whereas",
};

enum class WordKind { kNone, kPositive, kNegative, kNegator, kIntensifier, kDowntoner, kClause };

WordKind KindOf(std::string_view w) {
  static const auto* const kLexicon = [] {
    auto* m = new std::unordered_map<std::string_view, WordKind>();
    const auto add = [m](const auto& list, WordKind kind) {
      for (std::string_view word : list) m->emplace(word, kind);
    };
    add(kPositiveWords, WordKind::kPositive);
    add(kNegativeWords, WordKind::kNegative);
    add(kNegators, WordKind::kNegator);
    add(kIntensifiers, WordKind::kIntensifier);
    add(kDowntoners, WordKind::kDowntoner);
    add(kClauseWords, WordKind::kClause);
    return m;
  }();
  const auto it = kLexicon->find(w);
  return it == kLexicon->end() ? WordKind::kNone : it->second;
}

int Polarity(WordKind kind) {
  return kind == WordKind::kPositive ? 1 : kind == WordKind::kNegative ? -1 : 0;
}

bool IsNegator(const std::vector<std::string_view>& tokens, size_t i, WordKind kind) {
  if (kind == WordKind::kNegator) return true;
  // "don't" / "isn't" arrive as "don" "t" / "isn" "t" because the apostrophe separates words.
  return tokens[i] == "t" && i > 0 && !tokens[i - 1].empty() && tokens[i - 1].back() == 'n';
}

constexpr int kNegationWindow = 3;
constexpr double kIntensifierScale = 1.5;
constexpr double kDowntonerScale = 0.5;
// "not bad" is faint praise, not the opposite of "bad": a negated negative word counts for half.
constexpr double kNegatedNegativeScale = 0.5;

// ---------------------------------------------------------------------------------------------
// Actionable cues, as phrases matched on word boundaries like theme keywords.

constexpr std::string_view kActionCues[] = {
    "should",   "shouldn't", "must",    "mustn't",   "need to",  "needs",     "need",
    "needed",   "please",    "add",     "remove",    "use",      "avoid",     "consider",
    "missing",  "wish",      "instead", "make sure", "don't",    "dont",      "do not",
    "ensure",   "prefer",    "replace", "rename",    "extract",  "split",     "refactor",
    "simplify", "fix",       "handle",  "could",     "would be", "better to", "why not",
    "lacks",    "lacking",   "forgot",  "todo",      "move",     "drop",      "document",
};

constexpr size_t kMaxActionableBytes = 280;

// Cuts at most `cap` bytes without splitting a UTF-8 sequence. Backs up at most 3 bytes: further
// continuation bytes mean the input is not UTF-8 anyway, and the cut must still make progress.
std::string_view CapUtf8(std::string_view s, size_t cap) {
  if (s.size() <= cap) return s;
  size_t cut = cap;
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80; ++k) {
    --cut;
  }
  return s.substr(0, cut);
}

std::string_view TrimItem(std::string_view s) {
  while (true) {
    while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    // List bullets: "- add tests", "* add tests", "> quoted", "• add tests".
    if (s.size() >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+' || s[0] == '>') &&
        IsAsciiSpace(static_cast<unsigned char>(s[1]))) {
      s.remove_prefix(2);
      continue;
    }
    if (s.starts_with("\xE2\x80\xA2")) {
      s.remove_prefix(3);
      continue;
    }
    return s;
  }
}

// Dedup key: ASCII-lowercased with whitespace runs collapsed, so "Add tests" and "add  tests"
// count once.
std::string DedupKey(std::string_view s) {
  std::string key;
  key.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (IsAsciiSpace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !key.empty()) key.push_back(' ');
    space = false;
    key.push_back(LowerAscii(c));
  }
  return key;
}

// ---------------------------------------------------------------------------------------------
// FromJson helpers.

constexpr size_t kMaxThemes = 256;
constexpr size_t kMaxKeywordsPerTheme = 256;
constexpr size_t kMaxNameBytes = 64;
constexpr size_t kMaxKeywordBytes = 200;
constexpr size_t kMaxShownValueBytes = 80;

// The offending value as JSON, shortened so an error about a huge value stays readable.
std::string Show(simdjson::dom::element e) {
  std::string s = simdjson::minify(e);
  if (s.size() > kMaxShownValueBytes) {
    s.resize(CapUtf8(s, kMaxShownValueBytes - 3).size());
    s += "...";
  }
  return s;
}

std::string ShowString(std::string_view v) {
  std::string s = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') s.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      s += "\\u00";
      s.push_back(kHex[(static_cast<unsigned char>(c) >> 4) & 0xF]);
      s.push_back(kHex[c & 0xF]);
      continue;
    }
    s.push_back(c);
  }
  s.push_back('"');
  if (s.size() > kMaxShownValueBytes) {
    s.resize(CapUtf8(s, kMaxShownValueBytes - 4).size());
    s += "...\"";
  }
  return s;
}

Status FieldError(const std::string& path, const std::string& shown, std::string_view rule) {
  return InvalidArgument(path + ": " + shown + " " + std::string(rule));
}

bool IsSlug(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameBytes) return false;
  if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Result<Theme> ParseTheme(simdjson::dom::element e, const std::string& path) {
  simdjson::dom::object obj;
  if (e.get_object().get(obj) != simdjson::SUCCESS) {
    return FieldError(path, Show(e), "must be an object {\"name\": ..., \"keywords\": [...]}");
  }
  for (auto field : obj) {
    if (field.key != "name" && field.key != "keywords") {
      return InvalidArgument(path + "." + std::string(field.key) +
                             ": unknown field; allowed fields are name, keywords");
    }
  }
  Theme theme;

  const std::string name_path = path + ".name";
  simdjson::dom::element name_el;
  if (obj["name"].get(name_el) != simdjson::SUCCESS) {
    return InvalidArgument(name_path + ": missing; must be a non-empty string");
  }
  std::string_view name;
  if (name_el.get_string().get(name) != simdjson::SUCCESS || name.empty()) {
    return FieldError(name_path, Show(name_el), "must be a non-empty string");
  }
  if (!IsSlug(name)) {
    return FieldError(name_path, ShowString(name),
                      "must be a lowercase slug [a-z0-9][a-z0-9_-]* of at most 64 bytes");
  }
  theme.name = std::string(name);

  const std::string kw_path = path + ".keywords";
  simdjson::dom::element kw_el;
  if (obj["keywords"].get(kw_el) != simdjson::SUCCESS) {
    return InvalidArgument(kw_path + ": missing; must be a non-empty array of strings");
  }
  simdjson::dom::array kws;
  if (kw_el.get_array().get(kws) != simdjson::SUCCESS || kws.size() == 0) {
    return FieldError(kw_path, Show(kw_el), "must be a non-empty array of strings");
  }
  if (kws.size() > kMaxKeywordsPerTheme) {
    return InvalidArgument(kw_path + ": " + std::to_string(kws.size()) +
                           " keywords; must have at most " + std::to_string(kMaxKeywordsPerTheme));
  }
  std::string lowered;
  std::vector<std::string_view> words;
  size_t k = 0;
  for (simdjson::dom::element kw : kws) {
    const std::string item_path = kw_path + "[" + std::to_string(k++) + "]";
    std::string_view raw;
    if (kw.get_string().get(raw) != simdjson::SUCCESS) {
      return FieldError(item_path, Show(kw), "must be a non-empty string");
    }
    const std::string_view trimmed = TrimAscii(raw);
    if (trimmed.empty()) {
      return FieldError(item_path, ShowString(raw), "must be a non-empty string");
    }
    if (trimmed.size() > kMaxKeywordBytes) {
      return FieldError(item_path, ShowString(raw), "must be at most 200 bytes");
    }
    KeywordWords(trimmed, &lowered, &words);
    if (words.empty()) {
      return FieldError(item_path, ShowString(raw), "must contain a letter or digit");
    }
    theme.keywords.push_back(ToLowerAscii(trimmed));
  }
  return theme;
}

}  // namespace

const ThemeTaxonomy& ThemeTaxonomy::Default() {
  static const ThemeTaxonomy kDefault = BuildDefault();
  return kDefault;
}

Result<ThemeTaxonomy> ThemeTaxonomy::FromJson(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.parse(json.data(), json.size()).get(doc); err != simdjson::SUCCESS) {
    return InvalidArgument(std::string("taxonomy: not valid JSON (") +
                           simdjson::error_message(err) + ")");
  }
  simdjson::dom::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) {
    return FieldError("taxonomy", Show(doc), "must be an object {\"themes\": [...]}");
  }
  for (auto field : root) {
    if (field.key != "themes") {
      return InvalidArgument(std::string(field.key) + ": unknown field; allowed fields are themes");
    }
  }
  simdjson::dom::element themes_el;
  if (root["themes"].get(themes_el) != simdjson::SUCCESS) {
    return InvalidArgument("themes: missing; must be a non-empty array of themes");
  }
  simdjson::dom::array themes;
  if (themes_el.get_array().get(themes) != simdjson::SUCCESS || themes.size() == 0) {
    return FieldError("themes", Show(themes_el), "must be a non-empty array of themes");
  }
  if (themes.size() > kMaxThemes) {
    return InvalidArgument("themes: " + std::to_string(themes.size()) +
                           " themes; must have at most " + std::to_string(kMaxThemes));
  }
  ThemeTaxonomy taxonomy;
  size_t i = 0;
  for (simdjson::dom::element e : themes) {
    const std::string path = "themes[" + std::to_string(i++) + "]";
    auto theme = ParseTheme(e, path);
    if (!theme.ok()) return theme.status();
    for (size_t j = 0; j < taxonomy.themes.size(); ++j) {
      if (taxonomy.themes[j].name == theme->name) {
        return FieldError(path + ".name", ShowString(theme->name),
                          "must be unique (also themes[" + std::to_string(j) + "].name)");
      }
    }
    taxonomy.themes.push_back(std::move(theme).value());
  }
  return taxonomy;
}

std::vector<std::string> ExtractThemes(std::string_view text, const ThemeTaxonomy& taxonomy) {
  std::vector<std::string> found;
  if (text.empty()) return found;
  const std::string lowered = ToLowerAscii(text);
  std::vector<std::string_view> tokens;
  Tokenize(lowered, &tokens);
  if (tokens.empty()) return found;

  // Looking the keyword's first word up in the text's vocabulary avoids scanning the whole text
  // once per keyword.
  const std::unordered_set<std::string_view> vocabulary(tokens.begin(), tokens.end());
  std::string first_buffer;
  std::string kw_buffer;
  std::vector<std::string_view> kw_words;
  for (const Theme& theme : taxonomy.themes) {
    if (std::find(found.begin(), found.end(), theme.name) != found.end()) continue;
    for (const std::string& keyword : theme.keywords) {
      const std::string_view first = FirstWord(keyword, &first_buffer);
      if (first.empty() || !vocabulary.contains(first)) continue;
      KeywordWords(keyword, &kw_buffer, &kw_words);
      if (kw_words.size() == 1 || ContainsPhrase(tokens, kw_words)) {
        found.push_back(theme.name);
        break;
      }
    }
  }
  return found;
}

// Formula. Each lexicon word contributes a signed weight w = polarity (+1/-1) x scale, where
// scale is 1.5 after an intensifier ("very"), 0.5 after a downtoner ("slightly"), else 1. Within
// 3 words after a negator in the same clause the sign flips, and a flipped negative counts half
// ("not bad" = +0.5, "not good" = -1). "too" before a non-lexicon word ("too short") counts as -1.
// With P the sum of positive contributions and N the sum of magnitudes of negative ones:
//
//     sentiment = (P - N) / (P + N + 1)
//
// The +1 damps thin evidence ("nice" alone is 0.5, "nice, clean, solid" is 0.75) and keeps the
// result strictly inside (-1, 1); mixed feedback tends to 0 regardless of length.
double Sentiment(std::string_view text) {
  if (text.empty()) return 0.0;
  const std::string lowered = ToLowerAscii(text);
  std::vector<std::string_view> tokens;
  Tokenize(lowered, &tokens);

  double pos = 0.0;
  double neg = 0.0;
  int negation_left = 0;
  double scale = 1.0;
  const auto add = [&](double v) {
    if (negation_left > 0) v = v > 0 ? -v : -v * kNegatedNegativeScale;
    if (v > 0) {
      pos += v;
    } else {
      neg -= v;
    }
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view w = tokens[i];
    const WordKind kind = w.empty() ? WordKind::kClause : KindOf(w);
    if (kind == WordKind::kClause) {
      negation_left = 0;
      scale = 1.0;
      continue;
    }
    if (IsNegator(tokens, i, kind)) {
      negation_left = kNegationWindow;
      scale = 1.0;
      continue;
    }
    if (const int p = Polarity(kind); p != 0) {
      add(p * scale);
      scale = 1.0;
    } else if (kind == WordKind::kIntensifier) {
      scale = kIntensifierScale;
    } else if (kind == WordKind::kDowntoner) {
      scale = kDowntonerScale;
    } else if (w == "too" && i + 1 < tokens.size() && !tokens[i + 1].empty()) {
      // "too slow" is just an intensified "slow"; "too short" has no lexicon word to carry it.
      if (Polarity(KindOf(tokens[i + 1])) != 0) {
        scale = kIntensifierScale;
      } else {
        add(-1.0 * scale);
        scale = 1.0;
      }
    } else {
      scale = 1.0;
    }
    if (negation_left > 0) --negation_left;
  }
  const double score = (pos - neg) / (pos + neg + 1.0);
  return std::clamp(score, -1.0, 1.0);
}

std::vector<std::string> ActionableItems(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  const std::string lowered = ToLowerAscii(text);

  // The cues are lowercase literals, so their word views can point straight into them.
  static const auto* const kCues = [] {
    auto* cues = new std::vector<std::vector<std::string_view>>();
    for (std::string_view cue : kActionCues) {
      cues->emplace_back();
      Tokenize(cue, &cues->back());
      std::erase_if(cues->back(), [](std::string_view w) { return w.empty(); });
    }
    return cues;
  }();
  const auto& cues = *kCues;

  std::unordered_set<std::string> seen;
  std::vector<std::string_view> tokens;
  size_t start = 0;
  const auto flush = [&](size_t end) {
    const std::string_view sentence = TrimItem(text.substr(start, end - start));
    if (sentence.empty()) return;
    const size_t offset = static_cast<size_t>(sentence.data() - text.data());
    tokens.clear();
    Tokenize(std::string_view(lowered).substr(offset, sentence.size()), &tokens);
    const bool actionable = std::any_of(
        cues.begin(), cues.end(), [&](const auto& cue) { return ContainsPhrase(tokens, cue); });
    if (!actionable) return;
    const std::string_view item = TrimAscii(CapUtf8(sentence, kMaxActionableBytes));
    if (item.empty() || !seen.insert(DedupKey(item)).second) return;
    items.emplace_back(item);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool terminator =
        c == '\n' || c == '\r' ||
        ((c == '.' || c == '!' || c == '?' || c == ';') && EndsSentenceAt(text, i));
    if (terminator) {
      flush(i);
      start = i + 1;
    }
  }
  flush(text.size());
  return items;
}

}  // namespace kaizen::ingest
