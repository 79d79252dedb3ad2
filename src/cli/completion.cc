#include "cli/completion.h"

#include <fmt/format.h>

#include <vector>

namespace kaizen::cli {
namespace {

struct Level {
  std::string path;  // the verbs from the top, space-separated; "" for kaizen itself
  std::vector<std::string> verbs, options, value_options;
};

void Walk(const CLI::App& app, const std::string& path, std::vector<Level>* out) {
  Level level;
  level.path = path;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    level.verbs.push_back(sub->get_name());
  }
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) continue;
    for (const std::string& name : opt->get_lnames()) {
      level.options.push_back("--" + name);
      if (opt->get_type_size_max() > 0) level.value_options.push_back("--" + name);
    }
  }
  out->push_back(level);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    Walk(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
  }
}

std::string Words(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& w : v) out += (out.empty() ? "" : " ") + w;
  return out;
}

// One `case` arm per verb path that has any of `words`.
template <class Get>
std::string Arms(const std::vector<Level>& levels, Get get) {
  std::string out;
  for (const Level& l : levels) {
    const std::vector<std::string>& words = get(l);
    if (!words.empty()) out += fmt::format("    \"{}\") echo \"{}\" ;;\n", l.path, Words(words));
  }
  return out;
}

constexpr std::string_view kBashFunction = R"sh(_kaizen() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i verbs
  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="${COMP_WORDS[i]}"
    if [[ " $(_kaizen_verbs "$path") " == *" $word "* ]]; then
      path="${path:+$path }$word"
    fi
  done
  if [[ $prev == --* && " $(_kaizen_value_options "$path") " == *" $prev "* ]]; then
    COMPREPLY=( $(compgen -f -- "$cur") )
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=( $(compgen -W "$(_kaizen_options "$path")" -- "$cur") )
    return 0
  fi
  verbs="$(_kaizen_verbs "$path")"
  if [[ -n $verbs ]]; then
    COMPREPLY=( $(compgen -W "$verbs" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
  return 0
}
complete -o filenames -o bashdefault -F _kaizen kaizen
)sh";

std::string Bash(const CLI::App& app) {
  std::vector<Level> levels;
  Walk(app, "", &levels);
  std::string out = "# bash completion for kaizen (made by `kaizen completion bash`)\n";
  auto function = [&](std::string_view name, const std::string& arms) {
    out += fmt::format("{}() {{\n  case \"$1\" in\n{}  esac\n}}\n", name, arms);
  };
  function("_kaizen_verbs", Arms(
                                levels, [](const Level& l) -> auto& { return l.verbs; }));
  function("_kaizen_options", Arms(
                                  levels, [](const Level& l) -> auto& { return l.options; }));
  function("_kaizen_value_options",
           Arms(
               levels, [](const Level& l) -> auto& { return l.value_options; }));
  out += kBashFunction;
  return out;
}

}  // namespace

std::string CompletionScript(const CLI::App& app, std::string_view shell) {
  if (shell == "bash") return Bash(app);
  if (shell == "zsh") {
    return "#compdef kaizen\n"
           "# zsh completion for kaizen (made by `kaizen completion zsh`): the bash completion "
           "through zsh's bashcompinit\n"
           "autoload -U +X bashcompinit && bashcompinit\n" +
           Bash(app);
  }
  return {};
}

}  // namespace kaizen::cli
