// The JSON error body every non-2xx answer of `kaizen serve` carries, one shape for all of them:
//   {"error":{"code":"invalid_event","message":"...","errors":[{"path":"scores[0].score",
//   "message":"11 is out of range 1..10"}]}}
// `code` is a stable snake_case word a client can switch on; `message` is for a person; `errors`
// (possibly empty) names each offending field by its JSON path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "kaizen/status.h"

namespace kaizen::serve {

std::string ErrorBody(std::string_view code, std::string_view message,
                      const std::vector<ingest::FieldError>& errors = {});

// The stable code for an HTTP status (400 bad_request, 401 unauthorized, ... 503 unavailable).
std::string_view ErrorCodeFor(int http_status);

// The HTTP status a non-OK Status answers with: InvalidArgument 400, NotFound 404,
// ResourceExhausted 507 (disk full), Unavailable 503, anything else (I/O, data loss, a bug) 500.
int HttpStatusFor(const Status& status);

}  // namespace kaizen::serve
