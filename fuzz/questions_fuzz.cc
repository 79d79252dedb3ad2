// libFuzzer target for `<home>/config/questions.json` (home/question_config.h): the bytes are the
// file. ParseQuestionBank runs on them. Nothing may crash, leak or hang, and:
//   - a refused file is InvalidArgument naming the file first;
//   - an accepted bank is not empty, its ids are distinct, 1-64 bytes of [a-z0-9-] and never the
//     friction question's, its texts 1-500 bytes; FindQuestion finds each by its id, and the
//     friction question too; the next question of a fresh tracker is the bank's first.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "home/question_config.h"

namespace {

using namespace kaizen;

constexpr std::string_view kFile = "fuzz-questions.json";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto bank = home::ParseQuestionBank(text, kFile);
  if (!bank.ok()) {
    if (bank.status().code() != StatusCode::kInvalidArgument) std::abort();
    if (bank.status().message().substr(0, kFile.size() + 2) != std::string(kFile) + ": ") {
      std::abort();
    }
    return 0;
  }
  if (bank->empty()) std::abort();
  std::set<std::string> ids;
  for (const learn::BankQuestion& q : *bank) {
    if (!home::ValidQuestionId(q.id) || q.id == learn::FrictionQuestion().id) std::abort();
    if (!ids.insert(q.id).second) std::abort();
    if (q.text.empty() || q.text.size() > 500) std::abort();
    if (home::FindQuestion(*bank, q.id) != &q) std::abort();
  }
  if (home::FindQuestion(*bank, "friction") != &learn::FrictionQuestion()) std::abort();
  learn::QuestionMoment at;
  at.session = "s";
  const learn::NextQuestion next =
      learn::QuestionTracker().Next(*bank, at, learn::SignalWeightConfig{});
  if (!next.question || next.question->id != bank->front().id) std::abort();
  return 0;
}
