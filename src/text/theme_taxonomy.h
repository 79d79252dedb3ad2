// Theme taxonomies: what a theme is, where it comes from, and the validated, compiled set of
// themes that ExtractThemes matches against. Built in theme_taxonomy.cc; compiled in
// theme_matcher.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"  // kaizen::Status, kaizen::Result<T>, kaizen::InvalidArgument(...)

namespace kaizen::text {

struct Theme {
  std::string name;                   // e.g. "error-handling"
  std::vector<std::string> keywords;  // lowercase words, phrases or literal keywords (see
                                      // ExtractThemes)
};

// Where a theme of the taxonomy in effect comes from.
enum class ThemeOrigin : uint8_t {
  kShipped,   // the default taxonomy's, unchanged
  kUser,      // added by the user's file
  kExtended,  // the default taxonomy's, with keywords added by the user's file
};

// "shipped", "user", "extended".
std::string_view ThemeOriginName(ThemeOrigin origin);

// A taxonomy of themes, immutable once built: the keywords are compiled into an index when it is
// made, so ExtractThemes costs one lookup per word of text whatever the number of keywords.
// Copies share that index (it is never modified, so no lock is needed); a moved-from taxonomy
// has no themes.
class ThemeTaxonomy {
 public:
  static constexpr size_t kMaxThemes = 256;

  // The shipped default: error-handling, input-validation, naming, tests-and-edge-cases,
  // documentation, rate-limiting, retries, security, performance, types (with the escapes from
  // the type checker: `any`, `as unknown as`, @ts-ignore, # type: ignore), architecture,
  // readability, logging, concurrency, null-handling, response-checks (res.ok, status codes),
  // magic-numbers, dead-code, dependencies. Each with 8-80 keywords drawn from how reviewers
  // write (src/text/default_themes.cc). Every theme's origin is kShipped.
  static const ThemeTaxonomy& Default();

  // Validates and compiles `themes` (their order is the output order). Errors name the field
  // path, the value and the rule, e.g. `themes[2].keywords[0]: "" must be a non-empty string`.
  // There must be 1-256 themes; names must be lowercase slugs ([a-z0-9][a-z0-9_-]*, at most 64
  // bytes) and unique; each theme needs 1-256 keywords, each containing a letter or digit and at
  // most 200 bytes once trimmed. Keywords are stored ASCII-lowercased and trimmed.
  static Result<ThemeTaxonomy> FromThemes(std::vector<Theme> themes);

  // Parses a JSON document {"themes":[{"name":"...","keywords":["..."]}, ...]} and passes the
  // themes to FromThemes. Errors are worded the same way, e.g.
  // `themes[0].keywords[1]: null must be a non-empty string`.
  static Result<ThemeTaxonomy> FromJson(std::string_view json);

  // A user's file, <home>/config/themes.json: {"themes": [...]} as for FromJson, plus an
  // optional "replace" (boolean, default false). Without "replace" the file extends the shipped
  // default: a theme with a new name is added after the shipped ones (kUser), a theme with a
  // shipped name adds its keywords to that theme (kExtended; keywords it already has are not
  // repeated). With "replace": true the file's themes are the whole taxonomy (all kUser).
  // Errors name the path in the file, e.g. `themes[1].name: "Bad Name" must be a lowercase
  // slug ...`, and the limits of FromThemes apply to the merged taxonomy.
  static Result<ThemeTaxonomy> FromUserJson(std::string_view json);

  const std::vector<Theme>& themes() const { return themes_; }
  // By theme index: where each theme comes from (kUser for FromThemes and FromJson).
  const std::vector<ThemeOrigin>& origins() const { return origins_; }

 private:
  struct CompiledThemes;  // theme_matcher.cc: the keywords as a word table and a phrase automaton

  ThemeTaxonomy() = default;

  // The matcher's index of `themes` (theme_matcher.cc).
  static std::shared_ptr<const CompiledThemes> Compile(const std::vector<Theme>& themes);

  friend std::vector<std::string> ExtractThemes(std::string_view text,
                                                const ThemeTaxonomy& taxonomy);

  std::vector<Theme> themes_;
  std::vector<ThemeOrigin> origins_;
  std::shared_ptr<const CompiledThemes> compiled_;
};

}  // namespace kaizen::text
