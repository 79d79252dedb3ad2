#include "cli/global_options.h"

#include <algorithm>
#include <string_view>

namespace kaizen::cli {
namespace {

bool TakesValue(std::string_view name) {
  return name == "--home" || name == "--store" || name == "--now";
}

}  // namespace

std::vector<std::string> SharedOptionsAfterVerb(const std::vector<std::string>& argv) {
  std::vector<std::string> moved, rest;
  size_t i = 1;
  for (; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    const std::string_view name = std::string_view(arg).substr(0, arg.find('='));
    if (arg == "--json" || (TakesValue(name) && name.size() < arg.size())) {
      moved.push_back(arg);  // a flag, or --home=DIR
    } else if (TakesValue(arg) && i + 1 < argv.size()) {
      moved.push_back(arg);
      moved.push_back(argv[++i]);
    } else {
      break;  // the verb, or something the parser should see where it was written
    }
  }
  if (moved.empty()) return argv;
  rest.push_back(argv.empty() ? std::string("kaizen") : argv[0]);
  rest.insert(rest.end(), argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  auto separator = std::find(rest.begin() + 1, rest.end(), "--");
  rest.insert(separator, moved.begin(), moved.end());
  return rest;
}

}  // namespace kaizen::cli
