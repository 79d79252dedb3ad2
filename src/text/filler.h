// Filler and pleasantries: the sentences people delete from an agent's answer because they carry
// no content ("Great question!", "I hope this helps!", "As an AI language model, ..."). Shared by
// the classifier (a removed pleasantry is a tone_mismatch correction), the pattern learner (it
// learns "drop filler and pleasantries", not a length limit) and `kaizen validate` (it flags the
// listed phrases, never an ordinary sentence).
//
// A match is sentence-level, never a bare word inside a sentence:
//   - an interjection ("Certainly", "Sure", "Great question", "Absolutely") is filler when it
//     opens a sentence and stands alone: followed by '!', or by ',' / '.' for the ones that are
//     filler in that form too ("Sure, here is the fix." but not "Of course, the cache was stale.";
//     "Sure enough, ..." never);
//   - a pleasantry sentence ("I hope this helps", "Let me know if you have any questions",
//     "As an AI language model") is filler when the sentence starts with it; the match is the
//     whole sentence, up to its closing punctuation.
// Pure and bounded: the text is tokenized as the classifier does (kMaxClassifiedBytes,
// kMaxDiffTokens), so any input ends in time linear in its (capped) length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kaizen::text {

// What kind of pleasantry a listed phrase is; `kaizen validate` flags the families of the phrases
// people removed.
enum class FillerFamily : uint8_t {
  kOpener,         // praise or assent before the answer: "Great question!", "Certainly!"
  kCloser,         // well-wishes and offers after it: "I hope this helps!", "Happy to help"
  kSelfReference,  // "As an AI language model, ..."
  kApology,        // "I apologize for the confusion."
};
std::string_view FillerFamilyName(FillerFamily family);

struct FillerMatch {
  size_t begin = 0, end = 0;  // bytes of the text: the interjection or the whole sentence
  std::string_view phrase;  // the listed phrase, lowercase ("great question", "i hope this helps")
  FillerFamily family = FillerFamily::kOpener;
};

// The filler in `text`, in text order, at most one per sentence.
std::vector<FillerMatch> FindFiller(std::string_view text);

// The family of a listed phrase as FindFiller reports it (lowercase); false when not listed.
bool FillerFamilyOf(std::string_view phrase, FillerFamily* family);

}  // namespace kaizen::text
