#include "serve/http_errors.h"

#include "base/json_writer.h"
#include "serve/field_errors_json.h"

namespace kaizen::serve {

std::string ErrorBody(std::string_view code, std::string_view message,
                      const std::vector<ingest::FieldError>& errors) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "error");
  w.StartObject();
  base::Key(w, "code");
  base::Str(w, code);
  base::Key(w, "message");
  base::Str(w, message);
  base::Key(w, "errors");
  WriteFieldErrors(w, errors);
  w.EndObject();
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

std::string_view ErrorCodeFor(int http_status) {
  switch (http_status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 408:
      return "request_timeout";
    case 413:
      return "payload_too_large";
    case 414:
      return "uri_too_long";
    case 415:
      return "unsupported_media_type";
    case 422:
      return "invalid_event";
    case 431:
      return "headers_too_large";
    case 503:
      return "unavailable";
    case 507:
      return "insufficient_storage";
    default:
      return http_status >= 500 ? "internal" : "bad_request";
  }
}

int HttpStatusFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 200;
    case StatusCode::kInvalidArgument:
      return 400;
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kResourceExhausted:
      return 507;
    case StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

}  // namespace kaizen::serve
