#include "learn/reviews/detail_level.h"

#include "learn/state_archive.h"

namespace kaizen::learn {

void DetailLevelTracker::Add(const model::ReviewView& r) {
  for (const model::SectionView& s : r.sections) {
    if (s.name.empty()) continue;
    auto it = sections_.find(s.name);
    if (it == sections_.end()) {
      if (sections_.size() >= kMaxSections) continue;
      it = sections_.emplace(std::string(s.name), Tally{}).first;
    }
    Tally& t = it->second;
    ++t.shown;
    t.read += s.visible_ms >= config_.read_ms ? 1 : 0;
    t.expanded += s.expanded ? 1 : 0;
    t.visible_ms += s.visible_ms;
  }
}

std::vector<SectionStats> DetailLevelTracker::Result() const {
  const DetailLevelConfig& config = config_;
  std::vector<SectionStats> out;
  for (const auto& [name, t] : sections_) {
    SectionStats s{name,
                   t.shown,
                   t.read,
                   t.expanded,
                   t.shown > 0 ? t.visible_ms / 1000.0 / static_cast<double>(t.shown) : 0,
                   ""};
    const auto shown = static_cast<double>(t.shown);
    if (shown >= config.min_reviews) {
      if (static_cast<double>(t.expanded) >= config.expand_share * shown) {
        s.advice = "expand";
      } else if (static_cast<double>(t.read) < config.drop_share * shown) {
        s.advice = "drop";
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

void WriteJson(base::JsonWriter& w, const std::vector<SectionStats>& sections) {
  w.StartArray();
  for (const SectionStats& s : sections) {
    w.StartObject();
    base::Key(w, "section");
    base::Str(w, s.name);
    base::Key(w, "shown");
    w.Int64(s.shown);
    base::Key(w, "read");
    w.Int64(s.read);
    base::Key(w, "expanded");
    w.Int64(s.expanded);
    base::Key(w, "meanVisibleSeconds");
    base::Num(w, s.mean_visible_seconds);
    base::Key(w, "advice");
    base::Str(w, s.advice);
    w.EndObject();
  }
  w.EndArray();
}

template <class Archive>
void DetailLevelTracker::Tally::serialize(Archive& ar) {
  ar(shown, read, expanded, visible_ms);
}

template <class Archive>
void DetailLevelTracker::serialize(Archive& ar) {
  ar(sections_);
}

KZ_STATE_INSTANTIATE(DetailLevelTracker);

}  // namespace kaizen::learn
