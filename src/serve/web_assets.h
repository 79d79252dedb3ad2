// The web app's files (src/serve/web), compiled into the binary by cmake/embed_web.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace kaizen::serve {

struct WebAsset {
  std::string_view name;  // the file name, e.g. "app.js"
  std::string_view data;
};

const std::vector<WebAsset>& WebAssets();

// The asset called `name`, or nullptr.
const WebAsset* FindWebAsset(std::string_view name);
// The Content-Type for a file name by its extension ("text/javascript; charset=utf-8", ...).
std::string_view WebContentType(std::string_view name);

}  // namespace kaizen::serve
