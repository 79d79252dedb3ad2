// Building a ThemeTaxonomy: the shipped default, a hand-built or JSON list of themes, and a
// user's <home>/config/themes.json that extends the default. Validation errors name the field
// path, the value and the rule. Matching is in theme_matcher.cc.
#include <simdjson.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "text/ascii_case.h"
#include "text/default_themes.h"
#include "text/text_analysis.h"
#include "text/theme_keywords.h"

namespace kaizen::text {
namespace {

bool IsAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr size_t kMaxThemes = ThemeTaxonomy::kMaxThemes;
constexpr size_t kMaxKeywordsPerTheme = 256;
constexpr size_t kMaxNameBytes = 64;
constexpr size_t kMaxKeywordBytes = 200;
constexpr size_t kMaxShownValueBytes = 80;

// The offending value as JSON, shortened so an error about a huge value stays readable.
std::string Show(simdjson::dom::element e) {
  std::string s = simdjson::minify(e);
  if (s.size() > kMaxShownValueBytes) {
    s.resize(base::Utf8Prefix(s, kMaxShownValueBytes - 3).size());
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
    s.resize(base::Utf8Prefix(s, kMaxShownValueBytes - 4).size());
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

// A literal keyword's whitespace runs as single spaces (each matches a run in the text).
std::string CollapseSpaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (IsAsciiSpace(static_cast<unsigned char>(c))) {
      if (out.empty() || out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// Checks the theme at `path` and stores its keywords trimmed and lowercased (a literal keyword's
// whitespace runs also collapsed to single spaces).
Status NormalizeTheme(const std::string& path, Theme* theme) {
  const std::string name_path = path + ".name";
  if (theme->name.empty()) {
    return FieldError(name_path, ShowString(theme->name), "must be a non-empty string");
  }
  if (!IsSlug(theme->name)) {
    return FieldError(name_path, ShowString(theme->name),
                      "must be a lowercase slug [a-z0-9][a-z0-9_-]* of at most 64 bytes");
  }
  const std::string kw_path = path + ".keywords";
  std::vector<std::string>& keywords = theme->keywords;
  if (keywords.empty()) return FieldError(kw_path, "[]", "must be a non-empty array of strings");
  if (keywords.size() > kMaxKeywordsPerTheme) {
    return InvalidArgument(kw_path + ": " + std::to_string(keywords.size()) +
                           " keywords; must have at most " + std::to_string(kMaxKeywordsPerTheme));
  }
  for (size_t k = 0; k < keywords.size(); ++k) {
    const std::string item_path = kw_path + "[" + std::to_string(k) + "]";
    const std::string_view trimmed = TrimAscii(keywords[k]);
    if (trimmed.empty()) {
      return FieldError(item_path, ShowString(keywords[k]), "must be a non-empty string");
    }
    if (trimmed.size() > kMaxKeywordBytes) {
      return FieldError(item_path, ShowString(keywords[k]), "must be at most 200 bytes");
    }
    if (!internal::KeywordHasWord(trimmed)) {
      return FieldError(item_path, ShowString(keywords[k]), "must contain a letter or digit");
    }
    keywords[k] = internal::IsLiteralKeyword(trimmed) ? CollapseSpaces(ToLowerAscii(trimmed))
                                                      : ToLowerAscii(trimmed);
  }
  return Status();
}

// The theme at `path` as written, checking only the JSON's shape; FromThemes checks the values.
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
  if (name_el.get_string().get(name) != simdjson::SUCCESS) {
    return FieldError(name_path, Show(name_el), "must be a non-empty string");
  }
  theme.name = std::string(name);

  const std::string kw_path = path + ".keywords";
  simdjson::dom::element kw_el;
  if (obj["keywords"].get(kw_el) != simdjson::SUCCESS) {
    return InvalidArgument(kw_path + ": missing; must be a non-empty array of strings");
  }
  simdjson::dom::array kws;
  if (kw_el.get_array().get(kws) != simdjson::SUCCESS) {
    return FieldError(kw_path, Show(kw_el), "must be a non-empty array of strings");
  }
  size_t k = 0;
  for (simdjson::dom::element kw : kws) {
    std::string_view raw;
    if (kw.get_string().get(raw) != simdjson::SUCCESS) {
      return FieldError(kw_path + "[" + std::to_string(k) + "]", Show(kw),
                        "must be a non-empty string");
    }
    theme.keywords.emplace_back(raw);
    ++k;
  }
  return theme;
}

// The themes of a document {"themes": [...]} (and "replace" when `replace` is not null), as
// written; FromThemes checks the values.
Status ParseThemesDocument(std::string_view json, std::vector<Theme>* themes, bool* replace) {
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
    if (field.key == "replace" && replace != nullptr) {
      if (field.value.get_bool().get(*replace) != simdjson::SUCCESS) {
        return FieldError("replace", Show(field.value),
                          "must be true (the file's themes replace the shipped ones) or false "
                          "(they extend them)");
      }
    } else if (field.key != "themes") {
      return InvalidArgument(std::string(field.key) + ": unknown field; allowed fields are " +
                             (replace != nullptr ? "themes, replace" : "themes"));
    }
  }
  simdjson::dom::element themes_el;
  if (root["themes"].get(themes_el) != simdjson::SUCCESS) {
    return InvalidArgument("themes: missing; must be a non-empty array of themes");
  }
  simdjson::dom::array themes_array;
  if (themes_el.get_array().get(themes_array) != simdjson::SUCCESS) {
    return FieldError("themes", Show(themes_el), "must be a non-empty array of themes");
  }
  for (simdjson::dom::element e : themes_array) {
    auto theme = ParseTheme(e, "themes[" + std::to_string(themes->size()) + "]");
    if (!theme.ok()) return theme.status();
    themes->push_back(std::move(theme).value());
  }
  return Status();
}

// Checks `themes` as FromThemes does, with the paths of the user's file.
Status CheckThemes(std::vector<Theme>* themes) {
  if (themes->empty()) return FieldError("themes", "[]", "must be a non-empty array of themes");
  if (themes->size() > kMaxThemes) {
    return InvalidArgument("themes: " + std::to_string(themes->size()) +
                           " themes; must have at most " + std::to_string(kMaxThemes));
  }
  for (size_t i = 0; i < themes->size(); ++i) {
    const std::string path = "themes[" + std::to_string(i) + "]";
    KZ_RETURN_IF_ERROR(NormalizeTheme(path, &(*themes)[i]));
    for (size_t j = 0; j < i; ++j) {
      if ((*themes)[j].name == (*themes)[i].name) {
        return FieldError(path + ".name", ShowString((*themes)[i].name),
                          "must be unique (also themes[" + std::to_string(j) + "].name)");
      }
    }
  }
  return Status();
}

}  // namespace

std::string_view ThemeOriginName(ThemeOrigin origin) {
  switch (origin) {
    case ThemeOrigin::kShipped:
      return "shipped";
    case ThemeOrigin::kUser:
      return "user";
    case ThemeOrigin::kExtended:
      return "extended";
  }
  return "user";
}

const ThemeTaxonomy& ThemeTaxonomy::Default() {
  static const ThemeTaxonomy kDefault = [] {
    ThemeTaxonomy t = FromThemes(DefaultThemes()).value();
    t.origins_.assign(t.themes_.size(), ThemeOrigin::kShipped);
    return t;
  }();
  return kDefault;
}

Result<ThemeTaxonomy> ThemeTaxonomy::FromThemes(std::vector<Theme> themes) {
  KZ_RETURN_IF_ERROR(CheckThemes(&themes));
  ThemeTaxonomy taxonomy;
  taxonomy.compiled_ = Compile(themes);
  taxonomy.origins_.assign(themes.size(), ThemeOrigin::kUser);
  taxonomy.themes_ = std::move(themes);
  return taxonomy;
}

Result<ThemeTaxonomy> ThemeTaxonomy::FromJson(std::string_view json) {
  std::vector<Theme> themes;
  KZ_RETURN_IF_ERROR(ParseThemesDocument(json, &themes, nullptr));
  return FromThemes(std::move(themes));
}

Result<ThemeTaxonomy> ThemeTaxonomy::FromUserJson(std::string_view json) {
  std::vector<Theme> user;
  bool replace = false;
  KZ_RETURN_IF_ERROR(ParseThemesDocument(json, &user, &replace));
  if (replace) return FromThemes(std::move(user));
  KZ_RETURN_IF_ERROR(CheckThemes(&user));

  const ThemeTaxonomy& shipped = Default();
  std::vector<Theme> merged = shipped.themes();
  std::vector<ThemeOrigin> origins = shipped.origins();
  const size_t shipped_count = merged.size();
  for (size_t i = 0; i < user.size(); ++i) {
    Theme& theme = user[i];
    const auto same_name = std::find_if(merged.begin(), merged.begin() + shipped_count,
                                        [&](const Theme& t) { return t.name == theme.name; });
    if (same_name == merged.begin() + shipped_count) {
      merged.push_back(std::move(theme));
      origins.push_back(ThemeOrigin::kUser);
      continue;
    }
    const size_t shipped_keywords = same_name->keywords.size();
    for (std::string& keyword : theme.keywords) {
      auto& keywords = same_name->keywords;
      if (std::find(keywords.begin(), keywords.end(), keyword) == keywords.end()) {
        keywords.push_back(std::move(keyword));
      }
    }
    if (same_name->keywords.size() > kMaxKeywordsPerTheme) {
      return InvalidArgument("themes[" + std::to_string(i) +
                             "].keywords: " + std::to_string(same_name->keywords.size()) +
                             " keywords with the shipped theme's " +
                             std::to_string(shipped_keywords) + "; must have at most " +
                             std::to_string(kMaxKeywordsPerTheme) +
                             " (or set \"replace\": true to drop the shipped themes)");
    }
    origins[same_name - merged.begin()] = ThemeOrigin::kExtended;
  }
  if (merged.size() > kMaxThemes) {
    return InvalidArgument("themes: " + std::to_string(merged.size() - shipped_count) +
                           " new themes with the " + std::to_string(shipped_count) +
                           " shipped ones; must have at most " + std::to_string(kMaxThemes) +
                           " in all (or set \"replace\": true to drop the shipped themes)");
  }
  auto taxonomy = FromThemes(std::move(merged));
  if (!taxonomy.ok()) return taxonomy.status();
  taxonomy->origins_ = std::move(origins);
  return taxonomy;
}

}  // namespace kaizen::text
