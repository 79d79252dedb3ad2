// `kaizen themes [--json]`: the theme taxonomy in effect, the shipped default extended (or
// replaced) by <home>/config/themes.json, with each theme's keywords and where it comes from.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/learned_state.h"
#include "store/log_format.h"
#include "text/text_analysis.h"

namespace kaizen::cli {
namespace {

constexpr std::string_view kThemesFile = "config/themes.json";
constexpr size_t kTextWidth = 100;

// The keywords of `theme` that the shipped theme of the same name does not have.
std::vector<std::string> AddedKeywords(const text::Theme& theme) {
  std::vector<std::string> added;
  const auto& shipped = text::ThemeTaxonomy::Default().themes();
  const auto it = std::find_if(shipped.begin(), shipped.end(),
                               [&](const text::Theme& t) { return t.name == theme.name; });
  for (const std::string& k : theme.keywords) {
    if (it == shipped.end() ||
        std::find(it->keywords.begin(), it->keywords.end(), k) == it->keywords.end()) {
      added.push_back(k);
    }
  }
  return added;
}

// Where the taxonomy comes from, in a sentence.
std::string Source(const text::ThemeTaxonomy& taxonomy, bool has_file, const std::string& path) {
  if (!has_file) return "the shipped default (no " + path + ")";
  const auto& origins = taxonomy.origins();
  const bool keeps_shipped = std::any_of(origins.begin(), origins.end(),
                                         [](auto o) { return o != text::ThemeOrigin::kUser; });
  return keeps_shipped ? "the shipped default extended by " + path
                       : path + " (\"replace\": true: the shipped themes are not used)";
}

// `items` joined with ", ", wrapped at kTextWidth, each line indented by `indent`.
std::string Wrapped(const std::vector<std::string>& items, std::string_view indent) {
  std::string out;
  std::string line(indent);
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() > indent.size() && line.size() + 1 + item.size() > kTextWidth) {
      out += line + "\n";
      line = std::string(indent);
    }
    if (line.size() > indent.size()) line += " ";
    line += item;
  }
  return out + line + "\n";
}

std::string ThemesText(const text::ThemeTaxonomy& taxonomy, const std::string& source) {
  std::string out =
      fmt::format("Theme taxonomy in effect ({} themes): {}\n", taxonomy.themes().size(), source);
  for (size_t i = 0; i < taxonomy.themes().size(); ++i) {
    const text::Theme& theme = taxonomy.themes()[i];
    const text::ThemeOrigin origin = taxonomy.origins()[i];
    out += fmt::format("\n{} ({}, {} keywords)\n", theme.name, text::ThemeOriginName(origin),
                       theme.keywords.size());
    out += Wrapped(theme.keywords, "  ");
    if (origin == text::ThemeOrigin::kExtended) {
      out += "  added by your file:\n" + Wrapped(AddedKeywords(theme), "    ");
    }
  }
  return out;
}

std::string ThemesJson(const text::ThemeTaxonomy& taxonomy, const std::string& source) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "source");
  base::Str(w, source);
  base::Key(w, "themes");
  w.StartArray();
  for (size_t i = 0; i < taxonomy.themes().size(); ++i) {
    const text::Theme& theme = taxonomy.themes()[i];
    const text::ThemeOrigin origin = taxonomy.origins()[i];
    w.StartObject();
    base::Key(w, "name");
    base::Str(w, theme.name);
    base::Key(w, "origin");
    base::Str(w, text::ThemeOriginName(origin));
    base::Key(w, "keywords");
    base::StrArray(w, theme.keywords);
    base::Key(w, "addedKeywords");  // by the user's file; all of them for a user theme
    base::StrArray(w, origin == text::ThemeOrigin::kShipped ? std::vector<std::string>()
                      : origin == text::ThemeOrigin::kUser  ? theme.keywords
                                                            : AddedKeywords(theme));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

}  // namespace

Verb AddThemesVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "themes", "the theme taxonomy in effect: the shipped themes and <home>/config/themes.json");
  AddCommonOptions(sub, c, true, false);
  return {sub, [&c] {
            auto loaded = home::LoadTaxonomy(c.home);
            if (!loaded.ok()) return home::FailVerb("themes", loaded.status());
            const std::string path = store::PathIn(c.home, kThemesFile);
            const auto& taxonomy = loaded->has_value() ? **loaded : text::ThemeTaxonomy::Default();
            const std::string source = Source(taxonomy, loaded->has_value(), path);
            fmt::print("{}", c.json ? ThemesJson(taxonomy, source) : ThemesText(taxonomy, source));
            return kExitOk;
          }};
}

}  // namespace kaizen::cli
