#include "home/question_config.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <set>

#include "base/json_writer.h"
#include "model/event_writer.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::home {

using model::EventField;

bool ValidQuestionId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

Result<std::vector<learn::BankQuestion>> LoadQuestionBank(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, kQuestionsConfig);
  if (!fs->Exists(path)) return learn::DefaultQuestionBank();
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  return ParseQuestionBank(text, path);
}

Result<std::vector<learn::BankQuestion>> ParseQuestionBank(std::string_view text,
                                                           std::string_view path) {
  auto bad = [&](std::string_view field, std::string_view why) {
    return InvalidArgument(fmt::format("{}: {}: {}", path, field, why));
  };
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(text.data(), text.size()).get(doc) != simdjson::SUCCESS) {
    return bad("(file)", "not JSON");
  }
  simdjson::dom::array questions;
  if (doc["questions"].get_array().get(questions) != simdjson::SUCCESS) {
    return bad("questions", "missing, or not an array of {id, category, text}");
  }
  std::vector<learn::BankQuestion> bank;
  std::set<std::string, std::less<>> seen;
  size_t i = 0;
  for (simdjson::dom::element q : questions) {
    const std::string where = fmt::format("questions[{}]", i++);
    learn::BankQuestion b;
    std::string_view id, category, words;
    if (q["id"].get_string().get(id) != simdjson::SUCCESS || !ValidQuestionId(id) ||
        id == learn::FrictionQuestion().id) {
      return bad(where + ".id", "must be 1-64 bytes of a-z, 0-9 and -, and not \"friction\"");
    }
    if (!seen.insert(std::string(id)).second) return bad(where + ".id", "given twice");
    if (q["text"].get_string().get(words) != simdjson::SUCCESS || words.empty() ||
        words.size() > 500) {
      return bad(where + ".text", "must be the question, 1-500 bytes");
    }
    if (q["category"].error() != simdjson::NO_SUCH_FIELD &&
        (q["category"].get_string().get(category) != simdjson::SUCCESS || category.size() > 64)) {
      return bad(where + ".category", "must be a string of at most 64 bytes");
    }
    bank.push_back({std::string(id), std::string(category), std::string(words)});
  }
  if (bank.empty()) return bad("questions", "is empty: give at least one question");
  return bank;
}

const learn::BankQuestion* FindQuestion(const std::vector<learn::BankQuestion>& bank,
                                        std::string_view id) {
  if (id == learn::FrictionQuestion().id) return &learn::FrictionQuestion();
  for (const learn::BankQuestion& q : bank) {
    if (q.id == id) return &q;
  }
  return nullptr;
}

std::string QuestionIds(const std::vector<learn::BankQuestion>& bank) {
  std::string out;
  for (const learn::BankQuestion& q : bank) out += (out.empty() ? "" : ", ") + q.id;
  return out + ", " + learn::FrictionQuestion().id;
}

namespace {

std::string QuestionEvent(std::string_view action, const learn::BankQuestion& q,
                          std::string_view answer, std::string_view session,
                          std::string_view person) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kAdmin);
  model::Key(w, EventField::action);
  base::Str(w, action);
  model::Key(w, EventField::question_id);
  base::Str(w, q.id);
  model::Key(w, EventField::question);
  base::Str(w, q.text);
  if (!answer.empty()) {
    model::Key(w, EventField::note);
    base::Str(w, answer);
  }
  if (!session.empty()) {
    model::Key(w, EventField::session_id);
    base::Str(w, session);
  }
  if (!person.empty()) {
    model::Key(w, EventField::reviewerId);
    base::Str(w, person);
  }
  w.EndObject();
  return b.GetString();
}

}  // namespace

std::string NextQuestionJson(const learn::NextQuestion& next, std::string_view asked_event) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  model::Key(w, EventField::question);
  if (next.question) {
    w.StartObject();
    model::Key(w, EventField::id);
    base::Str(w, next.question->id);
    model::Key(w, EventField::category);
    base::Str(w, next.question->category);
    model::Key(w, EventField::text);
    base::Str(w, next.question->text);
    w.EndObject();
  } else {
    w.Null();
  }
  base::Key(w, "why");
  base::Str(w, next.why);
  if (!asked_event.empty()) {
    base::Key(w, "askedEvent");
    base::Str(w, asked_event);
  }
  w.EndObject();
  return b.GetString();
}

std::string AskEventJson(const learn::BankQuestion& q, std::string_view session,
                         std::string_view person) {
  return QuestionEvent("ask", q, {}, session, person);
}

std::string AnswerEventJson(const learn::BankQuestion& q, std::string_view answer,
                            std::string_view session, std::string_view person) {
  return QuestionEvent("answer", q, answer, session, person);
}

}  // namespace kaizen::home
