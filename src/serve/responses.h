// The answers every route builds: a JSON body, an error body (serve/http_errors.h's shape), the
// 400 for bad query parameters. Shared by routes.cc and routes_web.cc.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ingest/validate.h"
#include "serve/http_errors.h"
#include "serve/routes.h"

namespace kaizen::serve {

inline HttpResponse Error(int status, std::string_view message,
                          const std::vector<ingest::FieldError>& errors = {},
                          std::string_view code = {}) {
  HttpResponse r;
  r.status = status;
  r.body = ErrorBody(code.empty() ? ErrorCodeFor(status) : code, message, errors);
  return r;
}

// `body` with a final newline (added when missing).
inline HttpResponse Json(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  if (r.body.empty() || r.body.back() != '\n') r.body += '\n';
  return r;
}

inline HttpResponse BadParams(std::vector<ingest::FieldError> errors) {
  return Error(400, "bad query parameters", errors);
}

}  // namespace kaizen::serve
