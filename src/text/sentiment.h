// The `_sentiment` of a feedback event's free text (text_analysis.h). On its own because it needs
// only the tokenizer and a lexicon, none of the theme machinery.
#pragma once

#include <string_view>

namespace kaizen::text {

// Lexicon sentiment in [-1, 1] (see the formula in the .cc file): a small built-in lexicon of
// positive and negative review words, negation within 3 words, intensifiers and downtoners.
// 0 for no sentiment words. Deterministic.
double Sentiment(std::string_view text);

}  // namespace kaizen::text
