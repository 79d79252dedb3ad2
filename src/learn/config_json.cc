#include "learn/config_json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "base/json_writer.h"
#include "model/json_access.h"

namespace kaizen::learn {
namespace {

std::string_view Section(std::string_view name) { return name.substr(0, name.find('.')); }
std::string_view KeyOf(std::string_view name) { return name.substr(name.find('.') + 1); }

std::string FormatNumber(double v) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  base::Num(w, v);
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace

Status ApplyConfigJson(std::string_view json, const ConfigFields& fields) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto err = parser.parse(padded).get(root); err) {
    return InvalidArgument(
        fmt::format("learning config: not JSON ({})", simdjson::error_message(err)));
  }
  simdjson::dom::object sections;
  if (root.get_object().get(sections) != simdjson::SUCCESS) {
    return InvalidArgument("learning config: must be a JSON object of sections");
  }
  std::map<std::string, const ConfigField*, std::less<>> by_name;
  std::map<std::string, std::string, std::less<>> keys_by_section;
  for (const ConfigField& f : fields) {
    by_name.emplace(std::string(f.name), &f);
    std::string& keys = keys_by_section[std::string(Section(f.name))];
    keys += (keys.empty() ? "" : ", ") + std::string(KeyOf(f.name));
  }
  std::vector<std::pair<double*, double>> updates;
  for (auto [section, value] : sections) {
    auto known = keys_by_section.find(section);
    if (known == keys_by_section.end()) {
      std::string all;
      for (const auto& [s, k] : keys_by_section) all += (all.empty() ? "" : ", ") + s;
      return InvalidArgument(fmt::format("learning config: {}: unknown section (known: {})",
                                         model::QuoteForMessage(section), all));
    }
    simdjson::dom::object keys;
    if (value.get_object().get(keys) != simdjson::SUCCESS) {
      return InvalidArgument(fmt::format("learning config: {}: must be an object", section));
    }
    for (auto [key, v] : keys) {
      std::string name = fmt::format("{}.{}", section, key);
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return InvalidArgument(fmt::format("learning config: {}: unknown key (known in {}: {})",
                                           model::QuoteForMessage(name), section, known->second));
      }
      const ConfigField& f = *it->second;
      double d;
      if (v.get_double().get(d) != simdjson::SUCCESS) {
        return InvalidArgument(fmt::format("learning config: {}: {} is not a number", name,
                                           model::QuoteForMessage(simdjson::to_string(v))));
      }
      if (!(d >= f.min && d <= f.max)) {
        return InvalidArgument(fmt::format("learning config: {}: {} is out of range {}..{}", name,
                                           FormatNumber(d), FormatNumber(f.min),
                                           FormatNumber(f.max)));
      }
      if (f.integer && d != std::floor(d)) {
        return InvalidArgument(
            fmt::format("learning config: {}: {} must be a whole number", name, FormatNumber(d)));
      }
      updates.emplace_back(f.value, d);
    }
  }
  for (auto [ptr, d] : updates) *ptr = d;
  return Status::Ok();
}

std::string ConfigJson(const ConfigFields& fields) {
  // Sections in the order they first appear, keys in table order within each.
  std::vector<std::string_view> sections;
  for (const ConfigField& f : fields) {
    if (std::find(sections.begin(), sections.end(), Section(f.name)) == sections.end()) {
      sections.push_back(Section(f.name));
    }
  }
  std::string out = "{\n";
  for (size_t s = 0; s < sections.size(); ++s) {
    out += fmt::format("  \"{}\": {{\n", sections[s]);
    bool first = true;
    for (const ConfigField& f : fields) {
      if (Section(f.name) != sections[s]) continue;
      out += fmt::format("{}    \"{}\": {}", first ? "" : ",\n", KeyOf(f.name),
                         FormatNumber(*f.value));
      first = false;
    }
    out += s + 1 < sections.size() ? "\n  },\n" : "\n  }\n";
  }
  out += "}\n";
  return out;
}

}  // namespace kaizen::learn
