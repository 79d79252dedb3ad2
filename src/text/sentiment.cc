// The sentiment lexicon and the scoring pass over a text's words. The lexicon's lists are merged
// into one word table so each word of a text costs one lookup.
#include "text/sentiment.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/tokenizer.h"
#include "text/word_table.h"

namespace kaizen::text {
namespace {

// ---------------------------------------------------------------------------------------------
// Sentiment lexicon, kept alphabetical for review. Merged into one word table on first use so each
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

enum class WordKind : uint8_t {
  kNone,
  kPositive,
  kNegative,
  kNegator,
  kIntensifier,
  kDowntoner,
  kClause
};

int Polarity(WordKind kind) {
  return kind == WordKind::kPositive ? 1 : kind == WordKind::kNegative ? -1 : 0;
}

// The lexicon merged into one word table, plus the two words the rules look at by spelling: "t"
// (the tail of "n't") and "too".
class Lexicon {
 public:
  struct Entry {
    WordKind kind = WordKind::kNone;
    bool is_t = false;
    bool is_too = false;
  };

  static const Lexicon& Get() {
    static const Lexicon kLexicon;
    return kLexicon;
  }

  Entry Find(const WordRef& w) const { return entries_[table_.Find(w)]; }

 private:
  Lexicon() {
    std::vector<std::string> words;
    const auto add = [&](std::string_view word, WordKind kind) {
      // The first list a word appears in decides its kind.
      if (std::find(words.begin(), words.end(), word) != words.end()) return;
      words.emplace_back(word);
      entries_.push_back({kind, false, false});
    };
    for (std::string_view w : kPositiveWords) add(w, WordKind::kPositive);
    for (std::string_view w : kNegativeWords) add(w, WordKind::kNegative);
    for (std::string_view w : kNegators) add(w, WordKind::kNegator);
    for (std::string_view w : kIntensifiers) add(w, WordKind::kIntensifier);
    for (std::string_view w : kDowntoners) add(w, WordKind::kDowntoner);
    for (std::string_view w : kClauseWords) add(w, WordKind::kClause);
    add("t", WordKind::kNone);
    add("too", WordKind::kNone);
    for (size_t i = 0; i < words.size(); ++i) {
      entries_[i + 1].is_t = words[i] == "t";
      entries_[i + 1].is_too = words[i] == "too";
    }
    table_ = WordTable(words);
  }

  WordTable table_;
  std::vector<Entry> entries_ = {Entry{}};  // by word id; 0: not in the lexicon
};

constexpr int kNegationWindow = 3;
constexpr double kIntensifierScale = 1.5;
constexpr double kDowntonerScale = 0.5;
// "not bad" is faint praise, not the opposite of "bad": a negated negative word counts for half.
constexpr double kNegatedNegativeScale = 0.5;

}  // namespace

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
  const Lexicon& lexicon = Lexicon::Get();

  double pos = 0.0;
  double neg = 0.0;
  int negation_left = 0;
  double scale = 1.0;
  bool prev_ends_with_n = false;  // the previous token is a word ending in 'n'
  // "too" depends on the token after it, so its effect waits for that token.
  bool pending_too = false;

  const auto add = [&](double v) {
    if (negation_left > 0) v = v > 0 ? -v : -v * kNegatedNegativeScale;
    if (v > 0) {
      pos += v;
    } else {
      neg -= v;
    }
  };
  // Finishes a pending "too" given the next token: a word's lexicon entry, or nullptr for a break
  // or the end of the text.
  const auto resolve_too = [&](const Lexicon::Entry* next) {
    pending_too = false;
    if (next != nullptr) {
      // "too slow" is just an intensified "slow"; "too short" has no lexicon word to carry it.
      if (Polarity(next->kind) != 0) {
        scale = kIntensifierScale;
      } else {
        add(-1.0 * scale);
        scale = 1.0;
      }
    } else {
      scale = 1.0;
    }
    if (negation_left > 0) --negation_left;
  };

  ScanWords(text, [&](const WordRef& w, bool break_before) {
    if (break_before) {
      if (pending_too) resolve_too(nullptr);
      negation_left = 0;
      scale = 1.0;
      prev_ends_with_n = false;
    }
    const Lexicon::Entry entry = lexicon.Find(w);
    if (pending_too) resolve_too(&entry);
    const bool prev_n = prev_ends_with_n;
    prev_ends_with_n = kLower[w.text[w.begin + w.len - 1]] == 'n';
    if (entry.kind == WordKind::kNone && !entry.is_t && !entry.is_too) [[likely]] {
      scale = 1.0;  // the common case, short of the chain of tests below
      if (negation_left > 0) --negation_left;
      return true;
    }
    const WordKind kind = entry.kind;
    if (kind == WordKind::kClause) {
      negation_left = 0;
      scale = 1.0;
      return true;
    }
    // "don't" / "isn't" arrive as "don" "t" / "isn" "t" because the apostrophe separates
    // words.
    if (kind == WordKind::kNegator || (entry.is_t && prev_n)) {
      negation_left = kNegationWindow;
      scale = 1.0;
      return true;
    }
    if (const int polarity = Polarity(kind); polarity != 0) {
      add(polarity * scale);
      scale = 1.0;
    } else if (kind == WordKind::kIntensifier) {
      scale = kIntensifierScale;
    } else if (kind == WordKind::kDowntoner) {
      scale = kDowntonerScale;
    } else if (entry.is_too) {
      pending_too = true;
      return true;
    } else {
      scale = 1.0;
    }
    if (negation_left > 0) --negation_left;
    return true;
  });
  if (pending_too) resolve_too(nullptr);

  const double score = (pos - neg) / (pos + neg + 1.0);
  return std::clamp(score, -1.0, 1.0);
}

}  // namespace kaizen::text
