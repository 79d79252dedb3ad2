// seed 001 tier 3, the agent's question bank, as MCP tools: next_question (the one question to
// ask now, or why none; recorded as asked) and record_answer (what the person said). The same
// choice and events as `kaizen ask` / `kaizen answer` (cli/ask.cc, home/question_config.h).
#include <fmt/format.h>

#include <optional>
#include <vector>

#include "home/question_config.h"
#include "serve/tool_args.h"
#include "serve/tools_internal.h"

namespace kaizen::serve::internal {
namespace {

using model::JsonType;
using model::ObjectSpec;

// The home's question bank; nullopt, with the tool call refused, when it cannot be read.
std::optional<std::vector<learn::BankQuestion>> BankOrRefuse(LiveState* state, ToolResult* result) {
  Result<std::vector<learn::BankQuestion>> bank = home::LoadQuestionBank(state->home());
  if (!bank.ok()) {
    Refuse("the question bank cannot be read", {{"questions", bank.status().message()}}, result);
    return std::nullopt;
  }
  return std::move(bank).value();
}

const ObjectSpec& NextQuestionArgs() {
  static const ObjectSpec spec{
      "next_question arguments",
      {ArgField("session_id", JsonType::kIdentifier)
           .Doc("the session it would be asked in: never a second question in one session"),
       ArgField("reviewer", JsonType::kIdentifier)
           .Doc("who would be asked (default: whoever reviewed last): none while fatigued")}};
  return spec;
}

Status NextQuestion(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  std::optional<std::vector<learn::BankQuestion>> bank = BankOrRefuse(state, result);
  if (!bank) return Status::Ok();
  learn::QuestionMoment at;
  at.session = ArgString(args, "session_id");
  at.person = ArgString(args, "reviewer");
  learn::NextQuestion next;
  state->Read([&](const learn::Learner& learner, int64_t now_ms) {
    at.now_ms = now_ms;
    next = learner.questions().Next(*bank, at, learner.config().weights);
  });
  if (!next.question) {
    result->json = home::NextQuestionJson(next);
    result->text = "No question now: " + next.why + ".";
    return Status::Ok();
  }
  const learn::BankQuestion& q = *next.question;
  ToolResult asked;
  KZ_RETURN_IF_ERROR(SubmitEvent(state, home::AskEventJson(q, at.session, at.person),
                                 model::EventKind::kAdmin, &asked));
  if (asked.is_error) {
    *result = std::move(asked);
    return Status::Ok();
  }
  result->json = home::NextQuestionJson(next);
  result->text = fmt::format(
      "Ask the person, at this pause: \"{}\" ({}). Pass their words to record_answer with "
      "question_id \"{}\".",
      q.text, next.why, q.id);
  return Status::Ok();
}

const ObjectSpec& RecordAnswerArgs() {
  static const ObjectSpec spec{
      "record_answer arguments",
      {ArgField("question_id", JsonType::kIdentifier)
           .Req()
           .Doc("the question's id, as next_question gave it"),
       ArgField("answer", JsonType::kString).Req().Doc("what the person answered, in their words"),
       ArgField("session_id", JsonType::kIdentifier).Doc("the session it was asked in"),
       ArgField("reviewer", JsonType::kIdentifier).Doc("who answered")}};
  return spec;
}

Status RecordAnswer(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  std::optional<std::vector<learn::BankQuestion>> bank = BankOrRefuse(state, result);
  if (!bank) return Status::Ok();
  const std::string_view id = ArgString(args, "question_id");
  const learn::BankQuestion* q = home::FindQuestion(*bank, id);
  if (q == nullptr) {
    Refuse("unknown question",
           {{"question_id", fmt::format("\"{}\" is not a question of the bank (one of {})", id,
                                        home::QuestionIds(*bank))}},
           result);
    return Status::Ok();
  }
  return SubmitEvent(
      state,
      home::AnswerEventJson(*q, ArgString(args, "answer"), ArgString(args, "session_id"),
                            ArgString(args, "reviewer")),
      model::EventKind::kAdmin, result);
}

}  // namespace

std::vector<ToolDef> QuestionTools() {
  return {
      Def("next_question",
          "At a natural pause (a task or session done), get the one question to ask the person "
          "about how they like to work (seed 001 question bank), or why none now: never twice in "
          "a session, none while they are fatigued, \"What would have helped?\" after a revert or "
          "failed task, no repeat before the bank is used up. The question is recorded as asked.",
          NextQuestionArgs(), NextQuestion, /*writes=*/true),
      Def("record_answer",
          "Record the person's answer to a question next_question gave; kaizen tells agents what "
          "people answered (context, hints).",
          RecordAnswerArgs(), RecordAnswer, /*writes=*/true),
  };
}

}  // namespace kaizen::serve::internal
