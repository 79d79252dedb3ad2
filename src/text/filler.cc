#include "text/filler.h"

#include "text/ascii_case.h"
#include "text/correction_classifier.h"

namespace kaizen::text {
namespace {

enum class Form : uint8_t {
  kBang,      // an interjection, filler only when followed by '!' (or alone on its line)
  kComma,     // an interjection, filler followed by '!', ',' or '.' too
  kSentence,  // a sentence that starts with it is filler as a whole
};

struct Listed {
  std::string_view phrase;  // lowercase words separated by one space
  FillerFamily family;
  Form form;
};

// kaizen's list (the seed names the correction, not the words). Longer phrases first where one
// starts another, so the longest listed match wins.
constexpr Listed kFiller[] = {
    {"what a great question", FillerFamily::kOpener, Form::kComma},
    {"that's a great question", FillerFamily::kOpener, Form::kComma},
    {"that is a great question", FillerFamily::kOpener, Form::kComma},
    {"great question", FillerFamily::kOpener, Form::kComma},
    {"good question", FillerFamily::kOpener, Form::kComma},
    {"excellent question", FillerFamily::kOpener, Form::kComma},
    {"thanks for asking", FillerFamily::kOpener, Form::kComma},
    {"glad you asked", FillerFamily::kOpener, Form::kComma},
    {"certainly", FillerFamily::kOpener, Form::kComma},
    {"absolutely", FillerFamily::kOpener, Form::kComma},
    {"sure", FillerFamily::kOpener, Form::kComma},
    {"no problem", FillerFamily::kOpener, Form::kComma},
    {"of course", FillerFamily::kOpener, Form::kBang},
    {"i hope this answers your question", FillerFamily::kCloser, Form::kSentence},
    {"i hope this helps", FillerFamily::kCloser, Form::kSentence},
    {"i hope that helps", FillerFamily::kCloser, Form::kSentence},
    {"hope this helps", FillerFamily::kCloser, Form::kSentence},
    {"hope that helps", FillerFamily::kCloser, Form::kSentence},
    {"happy to help", FillerFamily::kCloser, Form::kSentence},
    {"i'd be happy to help", FillerFamily::kCloser, Form::kSentence},
    {"i would be happy to help", FillerFamily::kCloser, Form::kSentence},
    {"i'm happy to help", FillerFamily::kCloser, Form::kSentence},
    {"glad to help", FillerFamily::kCloser, Form::kSentence},
    {"glad i could help", FillerFamily::kCloser, Form::kSentence},
    {"please let me know if you have any", FillerFamily::kCloser, Form::kSentence},
    {"let me know if you have any", FillerFamily::kCloser, Form::kSentence},
    {"let me know if you need anything else", FillerFamily::kCloser, Form::kSentence},
    {"feel free to ask", FillerFamily::kCloser, Form::kSentence},
    {"feel free to reach out", FillerFamily::kCloser, Form::kSentence},
    {"don't hesitate to ask", FillerFamily::kCloser, Form::kSentence},
    {"don't hesitate to reach out", FillerFamily::kCloser, Form::kSentence},
    {"happy coding", FillerFamily::kCloser, Form::kSentence},
    {"as an ai language model", FillerFamily::kSelfReference, Form::kSentence},
    {"as a large language model", FillerFamily::kSelfReference, Form::kSentence},
    {"as a language model", FillerFamily::kSelfReference, Form::kSentence},
    {"as an ai", FillerFamily::kSelfReference, Form::kSentence},
    {"i'm just an ai", FillerFamily::kSelfReference, Form::kSentence},
    {"i am an ai", FillerFamily::kSelfReference, Form::kSentence},
    {"i apologize for the confusion", FillerFamily::kApology, Form::kSentence},
    {"i apologize for any confusion", FillerFamily::kApology, Form::kSentence},
    {"sorry for the confusion", FillerFamily::kApology, Form::kSentence},
    {"apologies for the confusion", FillerFamily::kApology, Form::kSentence},
    {"my apologies", FillerFamily::kApology, Form::kSentence},
};

// A pleasantry sentence longer than its phrase by more than this is an answer that happens to
// start politely, not filler.
constexpr size_t kMaxExtraSentenceTokens = 12;

// `word` (as written) equals the listed lowercase `listed` word, ignoring ASCII case and reading a
// typographic apostrophe (U+2019) as '\''.
bool WordIs(std::string_view word, std::string_view listed) {
  size_t i = 0, j = 0;
  while (i < word.size() && j < listed.size()) {
    if (word.substr(i, 3) == "\xE2\x80\x99") {
      if (listed[j] != '\'') return false;
      i += 3;
    } else {
      if (LowerAscii(word[i]) != listed[j]) return false;
      ++i;
    }
    ++j;
  }
  return i == word.size() && j == listed.size();
}

// How many tokens from `at` the listed phrase matches (its word count), or 0.
size_t MatchAt(const std::vector<Token>& t, size_t at, std::string_view phrase) {
  size_t k = at;
  while (!phrase.empty()) {
    const size_t sp = phrase.find(' ');
    const std::string_view word = phrase.substr(0, sp);
    if (k >= t.size() || t[k].line != t[at].line || !WordIs(t[k].text, word)) return 0;
    ++k;
    phrase = sp == std::string_view::npos ? std::string_view() : phrase.substr(sp + 1);
  }
  return k - at;
}

size_t EndOf(std::string_view text, const Token& t) {
  return static_cast<size_t>(t.text.data() - text.data()) + t.text.size();
}

// The byte after the interjection that ends at `end`, skipping spaces; '\n' at the end of text.
char NextChar(std::string_view text, size_t end) {
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return end < text.size() ? text[end] : '\n';
}

}  // namespace

std::string_view FillerFamilyName(FillerFamily family) {
  switch (family) {
    case FillerFamily::kOpener:
      return "opener";
    case FillerFamily::kCloser:
      return "closer";
    case FillerFamily::kSelfReference:
      return "self_reference";
    case FillerFamily::kApology:
      return "apology";
  }
  return "opener";
}

bool FillerFamilyOf(std::string_view phrase, FillerFamily* family) {
  for (const Listed& l : kFiller) {
    if (l.phrase == phrase) {
      *family = l.family;
      return true;
    }
  }
  return false;
}

std::vector<FillerMatch> FindFiller(std::string_view text) {
  text = text.substr(0, kMaxClassifiedBytes);
  const std::vector<Token> t = Tokenize(text);
  std::vector<FillerMatch> out;
  size_t i = 0;
  while (i < t.size()) {
    if (!t[i].sentence_start) {
      ++i;
      continue;
    }
    const Listed* best = nullptr;
    size_t best_len = 0;
    for (const Listed& l : kFiller) {
      const size_t n = MatchAt(t, i, l.phrase);
      if (n > best_len) {
        best = &l;
        best_len = n;
      }
    }
    // The sentence: up to the next token that starts one (or the next line).
    size_t next = i + 1;
    while (next < t.size() && !t[next].sentence_start && t[next].line == t[i].line) ++next;
    bool filler = false;
    size_t end = 0;
    if (best != nullptr && best->form != Form::kSentence) {
      end = EndOf(text, t[i + best_len - 1]);
      const char c = NextChar(text, end);
      filler = c == '!' || c == '\n' || (best->form == Form::kComma && (c == ',' || c == '.'));
    } else if (best != nullptr) {
      end = EndOf(text, t[next - 1]);
      filler = next - i <= best_len + kMaxExtraSentenceTokens;
    }
    if (!filler) {
      i = next;
      continue;
    }
    // The closing punctuation belongs to the filler.
    while (end < text.size() &&
           (text[end] == '!' || text[end] == '.' || text[end] == ',' || text[end] == '?')) {
      ++end;
    }
    out.push_back(
        {static_cast<size_t>(t[i].text.data() - text.data()), end, best->phrase, best->family});
    i = best->form == Form::kSentence ? next : i + best_len;
  }
  return out;
}

}  // namespace kaizen::text
