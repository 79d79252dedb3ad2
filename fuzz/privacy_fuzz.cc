// libFuzzer target for `<home>/config/privacy.json` (ingest/privacy.h): the bytes are the file.
// ParsePrivacyConfig runs on them. Nothing may crash, leak or hang, and:
//   - a refused file says why, with the JSON path first (`names[2]: 42 is not a string`);
//   - an accepted one holds only names and companies that are not blank, fit the identifier cap
//     and start and end with a letter or digit, and a Redactor is built from it;
//   - each listed name or company is found where it stands, unless a built-in detector (email,
//     phone, secret) claims part of the text: alone, the matches cover every byte of it; in a
//     sentence ("see WORD now"), a match covers its first byte.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ingest/privacy.h"
#include "model/limits.h"

namespace {

using namespace kaizen;
using namespace kaizen::ingest;

constexpr size_t kWordsChecked = 8;  // per list, so a long list stays fast

bool WordByte(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '_';
}

bool Covered(const std::vector<PiiMatch>& matches, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    bool in = false;
    for (const PiiMatch& m : matches) in |= m.begin <= i && i < m.end;
    if (!in) return false;
  }
  return true;
}

void CheckFound(const Redactor& redactor, const Redactor& builtin, const std::string& word) {
  const std::string sentence = "see " + word + " now";
  for (const auto& [text, begin, end] :
       {std::tuple{word, size_t{0}, word.size()}, std::tuple{sentence, size_t{4}, size_t{5}}}) {
    std::vector<PiiMatch> found;
    builtin.Find(text, &found);
    if (!found.empty()) continue;  // a built-in detector may claim part of the word first
    redactor.Find(text, &found);
    if (!Covered(found, begin, end)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<PrivacyConfig> parsed = ParsePrivacyConfig(text);
  if (!parsed.ok()) {
    if (parsed.status().code() != StatusCode::kInvalidArgument) std::abort();
    const std::string& message = parsed.status().message();
    if (message.find(": ") == std::string::npos) std::abort();
    return 0;
  }
  const PrivacyConfig& config = parsed.value();
  for (const auto* list : {&config.names, &config.companies}) {
    for (const std::string& word : *list) {
      if (word.empty() || word.size() > model::kMaxIdentifierBytes) std::abort();
      if (!WordByte(static_cast<unsigned char>(word.front())) ||
          !WordByte(static_cast<unsigned char>(word.back()))) {
        std::abort();
      }
    }
  }
  Result<std::unique_ptr<Redactor>> redactor = Redactor::Create(config);
  if (!redactor.ok()) std::abort();  // an accepted config must be usable at ingest
  static const std::unique_ptr<Redactor> builtin = std::move(Redactor::Create({})).value();
  for (const auto* list : {&config.names, &config.companies}) {
    for (size_t i = 0; i < list->size() && i < kWordsChecked; ++i) {
      CheckFound(*redactor.value(), *builtin, (*list)[i]);
    }
  }
  return 0;
}
