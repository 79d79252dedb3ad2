#include "learn/rules/session_prompts.h"

#include "learn/state_archive.h"
#include "model/project_key.h"

#include <algorithm>
#include <cctype>

namespace kaizen::learn {
namespace {

// The key that makes "Use pnpm, not npm" and "use pnpm,  not npm." one instruction.
std::string Key(std::string_view text) {
  std::string key;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !key.empty();
      continue;
    }
    if (space) key.push_back(' ');
    space = false;
    key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  while (!key.empty() && (key.back() == '.' || key.back() == '!')) key.pop_back();
  return key;
}

}  // namespace

std::vector<ReviewTheme> PromptThemes(const model::PromptView& prompt) {
  std::vector<ReviewTheme> out;
  int8_t polarity = 0;
  if (prompt.judgement == "correction" || prompt.judgement == "instruction") polarity = -1;
  if (prompt.judgement == "positive") polarity = +1;
  if (polarity == 0) return out;
  for (std::string_view theme : prompt.themes) {
    if (theme.empty()) continue;
    if (std::any_of(out.begin(), out.end(), [&](const ReviewTheme& t) { return t.theme == theme; }))
      continue;
    ReviewTheme t;
    t.theme = std::string(theme);
    t.source = kSourceSessionPrompt;
    t.example = prompt.text;
    t.polarity = polarity;
    out.push_back(std::move(t));
  }
  return out;
}

void SessionPrompts::Add(const model::PromptView& prompt) {
  const bool correction = prompt.judgement == "correction";
  const bool instruction = prompt.judgement == "instruction";
  if (prompt.judgement == "positive") ++positives_;
  if (!correction && !instruction) return;
  ++(correction ? corrections_ : instructions_);
  const std::string_view project = model::ProjectKey(prompt.project);
  projects_named_.Add(project);
  // Only what names something to do is told again: "that's wrong" meant something in its
  // conversation, not in the next one.
  const std::string_view said = prompt.instruction;
  std::string key = Key(said);
  if (key.empty()) return;
  auto it = told_.find(key);
  if (it == told_.end()) {
    if (told_.size() >= kKept) {  // the least recently said makes room
      auto oldest = told_.begin();
      for (auto i = told_.begin(); i != told_.end(); ++i) {
        if (i->second.seq < oldest->second.seq) oldest = i;
      }
      told_.erase(oldest);
    }
    it = told_.emplace(std::move(key), Entry{}).first;
  }
  ToldInstruction& t = it->second.told;
  t.text = std::string(said);  // the newest wording
  t.judgement = std::string(prompt.judgement);
  ++t.times;
  t.last_ms = std::max(t.last_ms, prompt.at_ms);
  if (project.empty()) {
    t.anywhere = true;
  } else if (auto at = std::lower_bound(t.projects.begin(), t.projects.end(), project);
             (at == t.projects.end() || *at != project) && t.projects.size() < kMaxToldProjects) {
    t.projects.insert(at, std::string(project));
  }
  it->second.seq = ++seq_;
}

std::vector<ToldInstruction> SessionPrompts::Told(size_t limit, std::string_view project) const {
  const std::string_view here = model::ProjectKey(project);
  auto holds = [&](const ToldInstruction& t) {
    return !projects_named_.several || t.anywhere || t.projects.size() >= 2 ||
           (!here.empty() && std::binary_search(t.projects.begin(), t.projects.end(), here));
  };
  std::vector<const Entry*> order;
  order.reserve(told_.size());
  for (const auto& [key, e] : told_) {
    if (holds(e.told)) order.push_back(&e);
  }
  std::sort(order.begin(), order.end(),
            [](const Entry* a, const Entry* b) { return a->seq > b->seq; });
  std::vector<ToldInstruction> out;
  for (size_t i = 0; i < order.size() && i < limit; ++i) out.push_back(order[i]->told);
  return out;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void SessionPrompts::Entry::serialize(Archive& ar) {
  ar(told.text, told.judgement, told.times, told.last_ms, told.projects, told.anywhere, seq);
}

template <class Archive>
void SessionPrompts::serialize(Archive& ar) {
  ar(state::SortedMap(told_), corrections_, instructions_, positives_, seq_, projects_named_);
}

KZ_STATE_INSTANTIATE(SessionPrompts);

}  // namespace kaizen::learn
