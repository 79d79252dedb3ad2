#include "base/json_text.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace kaizen::base {

std::string JsonQuote(std::string_view s) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace kaizen::base
