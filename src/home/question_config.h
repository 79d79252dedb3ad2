// The question bank in effect (seed 001 tier 3; learn/reviews/question_bank.h) and the events that
// record a question asked and its answer, shared by `kaizen ask|answer` and the MCP tools
// next_question and record_answer.
//
// <home>/config/questions.json, when present, replaces seed 001's fifteen:
//   {"questions": [{"id": "naming", "category": "code-preferences",
//                   "text": "Do you prefer long descriptive names or short ones?"}, ...]}
// ids are 1-64 bytes of [a-z0-9-], distinct, not "friction" (the friction question's); text is
// 1-500 bytes; category is optional.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "learn/reviews/question_bank.h"

namespace kaizen::home {

inline constexpr std::string_view kQuestionsConfig = "config/questions.json";

// InvalidArgument names the file, the field and the rule.
Result<std::vector<learn::BankQuestion>> LoadQuestionBank(const std::string& home);
// The same on the file's bytes; `path` names it in errors.
Result<std::vector<learn::BankQuestion>> ParseQuestionBank(std::string_view text,
                                                           std::string_view path);
// A question id as the config may give it: 1-64 bytes of [a-z0-9-].
bool ValidQuestionId(std::string_view id);
// The question `id` names: one of `bank`, or the friction question; nullptr otherwise.
const learn::BankQuestion* FindQuestion(const std::vector<learn::BankQuestion>& bank,
                                        std::string_view id);
// "id1, id2, ..." of `bank` and the friction question.
std::string QuestionIds(const std::vector<learn::BankQuestion>& bank);

// What `kaizen ask --json` and MCP next_question answer: {"question": {"id", "category", "text"}
// or null, "why"}, with "askedEvent" (the ask event's id) when `asked_event` is given.
std::string NextQuestionJson(const learn::NextQuestion& next, std::string_view asked_event = {});

// `admin` events: the question asked (action ask), and what the person answered (action answer).
// Empty session or person are left out.
std::string AskEventJson(const learn::BankQuestion& q, std::string_view session,
                         std::string_view person);
std::string AnswerEventJson(const learn::BankQuestion& q, std::string_view answer,
                            std::string_view session, std::string_view person);

}  // namespace kaizen::home
