// The tokenizer's helpers for keywords and cues, which run when a taxonomy or the cue list is
// built rather than per text, so they need not be inlined into the callers.
#include "text/tokenizer.h"

#include <string>
#include <string_view>
#include <vector>

#include "text/ascii_case.h"

namespace kaizen::text {

std::vector<std::string> SplitWords(std::string_view phrase) {
  std::vector<std::string> words;
  ScanWords(phrase, [&](const WordRef& w, bool) {
    words.push_back(ToLowerAscii(phrase.substr(w.begin, w.len)));
    return true;
  });
  return words;
}

bool HasWord(std::string_view s) {
  bool found = false;
  ScanWords(s, [&](const WordRef&, bool) {
    found = true;
    return false;
  });
  return found;
}

}  // namespace kaizen::text
