#include "text/prompt_judgement.h"

#include <re2/re2.h>

#include <array>
#include <cctype>
#include <memory>
#include <string>

namespace kaizen::text {
namespace {

// One RE2 per judgement, each an alternation: a prompt is scanned a few times, linearly.
// Case-insensitive; `'` stands for both apostrophes (the text is normalized first). RE2's \b is
// ASCII-only, so words of other scripts are delimited explicitly.
struct Patterns {
  // Questions are requests for information, not judgements ("how do I stop the server?"),
  // unless they ask why the agent did something.
  RE2 question{
      R"((?i)^(how|what|where|when|which|who|can|could|would|is|are|do|does|should)\b[^\n]*\?\s*$)"};
  RE2 why_did_you{R"((?i)\bwhy (did|would) you\b)"};

  RE2 correction{
      "(?i)"
      // An answer that opens with a refusal: "no, use X", "NO, stop", "нет, используй pnpm".
      R"(^(no|nope|nah|non|nein)\s*[,.!:;]|^no\s+(don't|do not|use|stop|that|not|it's|you|never)\b)"
      R"(|^(нет|не)[\s,.!:;])"
      R"(|^(actually|not like that|not that one|wrong|incorrect)\b)"
      // "that's wrong", "it is not right", "you are wrong", "that's not how it works".
      R"(|\b(that's|that is|this is|it's|it is|you're|you are|that was|this was)\s+(just\s+|still\s+)?)"
      R"((wrong|incorrect|not right|not correct|not what i (asked|wanted|meant|said)|not how))"
      R"(|\bnot what i (asked|wanted|meant|said)\b)"
      // A reminder of what was already said: "I told you to use async", "I said pnpm, not npm".
      R"(|\bi (told|asked) you\b|\bi (said|meant)\b)"
      // Telling the agent to stop what it does: "don't use that library", "stop using globals".
      R"(|^(please\s+|pls\s+)?(don't|do not|dont|never|stop|quit)\b)"
      R"(|\bwhy (did|would) you\b|\byou (forgot|missed|broke|deleted|removed|ignored|didn't)\b)"
      R"(|^(that|this|you) (broke|breaks)\b|\btry again\b|\bwrong with (your|the) (approach|code|change|fix|answer|solution)\b)"
      R"(|\byou should(n't| not)?\b)"
      // The corrected choice: "use X instead", "Go rather than Python", "pnpm, not npm".
      R"(|\binstead\b|\brather than\b|^[^,\n]{1,60},\s*not\s+[^\s,]+\s*[.!]?$)"
      // Chinese: "you're wrong", "not right", "doesn't work, another way", "you forgot".
      R"(|你错了|不对|不行|换个|你忘了)"};

  RE2 instruction{
      "(?i)"
      R"(^(please\s+)?remember\b|\b(always|never)\b|\bfrom now on\b|^(please\s+)?make sure\b)"
      R"(|\bi('d| would)? prefer\b|\b(it's|it is) better to\b)"
      R"(|^(please\s+|pls\s+)use\b)"
      R"(|\b(answer|reply|respond|write|talk)( to me| me)? in (english|french|german|spanish|russian|chinese|japanese|portuguese|italian)\b)"
      R"(|\bkeep (answers|responses|replies|it) (short|brief|concise)\b)"};

  RE2 positive{
      "(?i)"
      R"(^(perfect|excellent|awesome|fantastic|exactly|lgtm|great job|great work|nice work|nice job|good job|well done)\b)"
      R"(|^(looks good|love it|that works|this works|works now|works great))"
      R"(|^(that's|that is|this is) (it|right|correct|perfect|great|exactly right)\b)"
      R"(|\bexactly what i (wanted|needed|asked)\b)"};

  // What is left once the opening judgement is taken off: "no, " / "remember: " /
  // "that's wrong, " / "actually, ".
  RE2 opening{
      "(?i)"
      R"(^\s*((no|nope|nah|non|nein|нет|actually|remember to|remember|please|pls|ok|okay|hmm|wait)\b\s*[,.!:;-]*\s*)+)"};
  RE2 verdict{
      "(?i)"
      R"(^\s*(that's|that is|this is|it's|it is|you're|you are)\s+(wrong|incorrect|not right|not correct)\s*[,.!:;-]*\s*)"};
};

const Patterns& P() {
  static const Patterns* p = new Patterns();
  return *p;
}

std::string Normalize(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    // U+2018/U+2019 (E2 80 98/99) as an ASCII apostrophe: phones and editors type them.
    if (i + 2 < text.size() && static_cast<unsigned char>(text[i]) == 0xE2 &&
        static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0x98 ||
         static_cast<unsigned char>(text[i + 2]) == 0x99)) {
      s.push_back('\'');
      i += 2;
      continue;
    }
    s.push_back(text[i]);
  }
  const size_t begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const size_t end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

// Words that say nothing to do on their own: "use this instead", "not like that, do it this
// way", "try again" point at the conversation, which the agent will not have next time.
bool IsEmptyWord(std::string_view w) {
  static constexpr std::string_view kEmpty[] = {
      "the",     "and",       "for",     "with",   "this",  "that",   "these",  "those",
      "its",     "way",       "instead", "does",   "use",   "using",  "not",    "like",
      "again",   "one",       "other",   "thing",  "here",  "there",  "what",   "asked",
      "said",    "meant",     "told",    "you",    "your",  "try",    "please", "pls",
      "stop",    "doing",     "don't",   "dont",   "never", "always", "wrong",  "right",
      "correct", "incorrect", "how",     "works",  "work",  "was",    "wanted", "want",
      "did",     "done",      "just",    "all",    "any",   "some",   "more",   "less",
      "get",     "got",       "it's",    "that's", "isn't", "now",    "then",   "yet"};
  for (std::string_view e : kEmpty) {
    if (w == e) return true;
  }
  return false;
}

// Whether `text` names something to do: a word of 3+ letters other than the empty ones, or a run
// of letters of another script (Chinese, Russian...), which the list does not cover.
bool HasContent(std::string_view text) {
  std::string word;
  bool other_script = false;
  auto done = [&] {
    const bool content = other_script || (word.size() >= 3 && !IsEmptyWord(word));
    word.clear();
    other_script = false;
    return content;
  };
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      other_script = true;
      word.push_back(c);
    } else if (std::isalnum(u) || c == '\'' || c == '_' || c == '-' || c == '.') {
      word.push_back(static_cast<char>(std::tolower(u)));
    } else if (!word.empty() && done()) {
      return true;
    }
  }
  return !word.empty() && done();
}

// What to do, as said: the prompt without its opening judgement, when what remains names
// something to do.
std::string InstructionOf(const std::string& text) {
  std::string rest = text;
  RE2::Replace(&rest, P().opening, "");
  RE2::Replace(&rest, P().verdict, "");
  if (rest.size() < 3 || !HasContent(rest)) return {};
  return rest;
}

}  // namespace

std::string_view PromptJudgementName(PromptJudgement j) {
  switch (j) {
    case PromptJudgement::kCorrection:
      return "correction";
    case PromptJudgement::kInstruction:
      return "instruction";
    case PromptJudgement::kPositive:
      return "positive";
    case PromptJudgement::kNone:
      break;
  }
  return "none";
}

std::optional<PromptJudgement> ParsePromptJudgement(std::string_view name) {
  for (PromptJudgement j : {PromptJudgement::kNone, PromptJudgement::kCorrection,
                            PromptJudgement::kInstruction, PromptJudgement::kPositive}) {
    if (PromptJudgementName(j) == name) return j;
  }
  return std::nullopt;
}

PromptReading ReadPrompt(std::string_view raw) {
  PromptReading r;
  const std::string text = Normalize(raw);
  // A slash command or an empty prompt is addressed to the agent's program, not its work.
  if (text.empty() || text[0] == '/') return r;
  const Patterns& p = P();
  if (RE2::PartialMatch(text, p.question) && !RE2::PartialMatch(text, p.why_did_you)) return r;
  if (RE2::PartialMatch(text, p.correction)) {
    r.judgement = PromptJudgement::kCorrection;
  } else if (RE2::PartialMatch(text, p.instruction)) {
    r.judgement = PromptJudgement::kInstruction;
  } else if (RE2::PartialMatch(text, p.positive)) {
    r.judgement = PromptJudgement::kPositive;
    return r;
  } else {
    return r;
  }
  r.instruction = InstructionOf(text);
  return r;
}

}  // namespace kaizen::text
