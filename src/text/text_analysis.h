// Enrichment of a feedback event's freeText {liked, disliked, generalNotes} at ingest: the seed's
// `_extractedThemes`, `_sentiment` (-1..1) and `_actionableItems`. Runs on every event that has
// free text, so each function is a single tokenizing pass over the text with at most one table
// lookup per word and no allocation per word (no regex, no lowercase copy), linear in the input,
// and no input (invalid UTF-8, 64 KiB, empty) can crash or hang it.
// Callers include this one header; each part is declared in its own, next to its code.
#pragma once

#include "text/actionable_items.h"
#include "text/sentiment.h"
#include "text/theme_matcher.h"
#include "text/theme_taxonomy.h"
