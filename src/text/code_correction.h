// Corrections of code: telling code from prose, and the code categories kaizen adds to seed 004's
// taxonomy (docs/knowledge.md "Corrections"):
//   type_safety     an unsafe type marker removed (`: any`, `as any`, `<any>`, `@ts-ignore`,
//                   `@ts-nocheck`, `# type: ignore`), or `any`/`object` narrowed to a type
//   naming          identifiers renamed consistently: every change replaces one identifier with
//                   another, and the old name is gone everywhere
//   null_handling   null checks added (`?.`, `??`, a comparison with null/undefined/nil/None)
//   error_handling  error handling added (try/catch/except/finally, throw/raise, `err` checks)
//   dead_code       lines deleted, none added or changed (checked first: deleting code that
//                   had an `any` is not a type fix)
//   code_fix        any other change to code (a weak guess)
// A human edit of an agent's code (`kaizen git scan`: original = the agent's lines, corrected =
// the person's, context.file) is classified here, not by the prose rules.
//
// Pure and bounded like the classifier: every text is read from its first kMaxClassifiedBytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "text/correction_classifier.h"

namespace kaizen::text {

// Whether `file` (a path, as in a correction's context.file) names source code (by extension:
// .ts, .py, .cc, ...) or prose (.md, .txt, .rst, .adoc); nullopt when it says neither.
std::optional<bool> IsCodeFile(std::string_view file);

// Whether `text` reads as code: at least half of its non-empty lines score as code (a line
// ending in ';' '{' '}', an operator such as `=>` `::` `===` `?.`, a call `f(`, a keyword such as
// `const`/`def`/`return` opening it, a snake_case or camelCase name), lines inside ``` fences
// counting as code.
bool LooksLikeCode(std::string_view text);

// The correction is of code: context.file says so, else either side reads as code or carries an
// unsafe type marker.
bool IsCodeCorrection(std::string_view original, std::string_view corrected, std::string_view file);

// An unsafe type marker in `text`, at its byte offset: "any" (`any` in a type position: after
// ':' '<' '|' or `as`, or before '[]' '>' '|'), "ts-ignore", "ts-nocheck", "type: ignore".
struct UnsafeTypeMarker {
  size_t offset = 0, length = 0;
  std::string_view marker;  // one of the names above
};
std::vector<UnsafeTypeMarker> FindUnsafeTypeMarkers(std::string_view text);

// The consistent renames of the diff (old, new), in order of first change, or empty when some
// change is not one identifier replaced by another, an old name is still used in the corrected
// text, one old name became two new ones, or a name is a built-in type (`int`, `string`, `any`).
std::vector<std::pair<std::string_view, std::string_view>> ConsistentRenames(const TokenDiff& d);

// Whether a change of the diff replaces `any` (or `Any`) by `unknown` or `never`: a type-safety
// correction wherever it is written ("use `unknown`, not `any`").
bool NarrowsAnyType(const TokenDiff& d);

// How many lines original -> corrected deletes when it only deletes lines (every corrected line,
// trimmed, is an original line), and not only lines with an unsafe type marker (deleting
// `// @ts-ignore` is a type fix); 0 otherwise.
size_t DeletedLines(std::string_view original, std::string_view corrected);

// The code category of original -> corrected (see the table above), for ClassifyCorrection.
// REQUIRES: IsCodeCorrection(original, corrected, ...) and the words differ.
CorrectionClass ClassifyCodeCorrection(const TokenDiff& d, std::string_view original,
                                       std::string_view corrected);

// Whether `correction_type` is one of the code categories above.
bool IsCodeCategory(std::string_view correction_type);

}  // namespace kaizen::text
