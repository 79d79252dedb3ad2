// The shipped theme taxonomy as data (ThemeTaxonomy::Default compiles it once).
#pragma once

#include <vector>

#include "text/text_analysis.h"

namespace kaizen::text {

// The shipped themes, in output order. Keywords are lowercase; the ones with punctuation other
// than - _ / ' are literal keywords (text_analysis.h, ExtractThemes).
std::vector<Theme> DefaultThemes();

}  // namespace kaizen::text
