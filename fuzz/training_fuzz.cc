// libFuzzer target for `kaizen export --format sft|dpo` (render/training_rows.h): the bytes are
// log lines, each parsed as JSON and, when it parses, handed to a TrainingRows of each format in
// turn. Nothing may crash, leak or hang, and every row written is one line holding one JSON
// object with the format's columns (prompt and completion, or prompt, chosen and rejected) and
// its `source`, as many rows as Add said.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "render/training_rows.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kaizen::render;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (TrainingFormat format : {TrainingFormat::kSft, TrainingFormat::kDpo}) {
    TrainingRows rows(format);
    simdjson::dom::parser parser, check;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      simdjson::dom::element event;
      if (parser.parse(line.data(), line.size()).get(event) != simdjson::SUCCESS) continue;
      std::string out;
      const size_t n = rows.Add(event, &out);
      size_t lines = 0, at = 0;
      while (at < out.size()) {
        const size_t nl = out.find('\n', at);
        if (nl == std::string::npos) std::abort();  // every row ends its line
        simdjson::dom::element row;
        if (check.parse(out.data() + at, nl - at).get(row) != simdjson::SUCCESS) std::abort();
        std::string_view v;
        if (row["prompt"].get_string().get(v) != simdjson::SUCCESS) std::abort();
        if (row["source"].get_string().get(v) != simdjson::SUCCESS) std::abort();
        const bool dpo = format == TrainingFormat::kDpo;
        if (row[dpo ? "chosen" : "completion"].get_string().get(v) != simdjson::SUCCESS) {
          std::abort();
        }
        if (dpo && row["rejected"].get_string().get(v) != simdjson::SUCCESS) std::abort();
        ++lines;
        at = nl + 1;
      }
      if (lines != n) std::abort();
    }
  }
  return 0;
}
