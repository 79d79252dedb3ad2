// Turns stored events (parsed JSON) into the views the learning rules read, and resolves a
// feedback's `{"id"[, "version"]}` work-product reference through the `work` events seen so far
// (log order: ingest refuses a reference to a work event not yet recorded).
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <simdjson.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "learn/prepared_event.h"
#include "learn/sections.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/event_kind.h"
#include "model/inputs.h"

namespace kaizen::learn {

// The work products the log registered, compactly: strings that repeat (types, server types,
// stages, models) are interned once.
class WorkRegistry {
 public:
  // Remembers a `work` event's product; a later registration of the same (id, version) wins.
  // Returns the whole event: views of the registry's own copies, valid as long as the registry,
  // except the event id, path and session, which are `work`'s own (only a pending review-queue
  // item needs them later, and it copies them: keeping them for every registration was a
  // measurable share of a large history's memory; docs/performance.md, "Figures behind the
  // source's choices").
  model::WorkView Register(const model::WorkView& work);
  // The registered product (its event id, path, session and priority left out), or nothing. An
  // empty version means the latest registered version.
  std::optional<model::WorkView> Find(std::string_view artifact_id, std::string_view version) const;
  // Every registered version of an artifact, oldest first (a version registered twice once).
  std::vector<std::string_view> Versions(std::string_view artifact_id) const;
  size_t size() const { return size_; }

 private:
  // What Find returns of one registration, packed: a 1M-event history registers 230,000 (as a
  // WorkView, 232 bytes each; now 112). Strings live in the arena; the repeating ones are ids of
  // interned names.
  struct Entry {
    int64_t at_ms;
    std::string_view artifact_id, version, summary;
    double confidence;
    double score_prediction;  // when has_prediction
    int64_t iteration_count;
    uint32_t previous;  // the entry of the same artifact registered before, or kNone
    uint32_t depth;     // registrations of the artifact up to this one
    uint32_t type, server_type, stage, model, project;  // names_ indexes
    bool has_prediction;
    bool experimental;
  };
  static constexpr uint32_t kNone = UINT32_MAX;
  // An artifact registered up to kWalked times is searched by walking its registrations, newest
  // first; past that its versions are indexed (by_version_). Most artifacts have a version or
  // two, and a map of every version would cost memory and time for nothing; one registered on
  // every `kaizen check` run has thousands, which a walk would make quadratic (docs/performance.md,
  // "Figures behind the source's choices").
  static constexpr uint32_t kWalked = 8;

  model::WorkView ViewOf(const Entry& e) const;
  // The newest entry of `version` in the chain that ends at `latest`, or kNone.
  uint32_t EntryOf(uint32_t latest, std::string_view version) const;

  std::string_view Keep(std::string_view s);  // a stable copy in the arena
  uint32_t NameId(std::string_view s);        // its index in names_, interning it when new

  // work_registry_state.cc: names_ and entries_ as strings; a load interns the names in their
  // order, then registers the entries again, which rebuilds the arena and the maps.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  // A deque: it grows without copying or spare capacity. Entries' strings live in the arena, and
  // the maps are keyed by views of those strings: registering an artifact costs one map node and
  // no string allocation.
  std::deque<Entry> entries_;
  std::vector<std::unique_ptr<char[]>> arena_;
  size_t arena_left_ = 0;
  char* arena_next_ = nullptr;
  std::vector<std::string_view> names_{std::string_view()};   // interned; names_[0] is ""
  absl::flat_hash_map<std::string_view, uint32_t> name_ids_;  // never iterated
  // Never iterated, so Abseil's seeded hash cannot change any output. The newest entry of each
  // artifact, and of each (artifact, version) of the artifacts past kWalked registrations.
  absl::flat_hash_map<std::string_view, uint32_t> latest_;
  absl::flat_hash_map<std::pair<std::string_view, std::string_view>, uint32_t> by_version_;
  size_t size_ = 0;
};

// One stored event as views. Reused across events so vectors keep their capacity.
struct EventViews {
  model::EventKind kind = model::EventKind::kAdmin;
  model::ReviewView review;
  model::WorkView work;
  model::OutcomeView outcome;
  model::ErrorView error;
  model::RewardView reward;
  model::CorrectionView correction;
  model::LoopView loop;
  model::AdminView admin;
  model::PromptView prompt;
  // Filled by Learner::Prepare on a reader thread; the reader clears `prepared.by`.
  PreparedEvent prepared;
};

// Reads stored lines in one pass over each object (simdjson On-Demand: values the rules do not
// need are skipped, not parsed). A stored line starts with `kind`, `id`, `timestamp`. Reading is
// independent of other events, so files can be read on several threads; references between
// events are resolved afterwards, in log order, by ResolveInLogOrder.
class EventReader {
 public:
  // Reads one stored event into `out`; views borrow from the parser's buffers (valid until the
  // next document). A feedback's work product given by reference is left unresolved
  // (work_known = false, only artifact_id and version set). Returns false for a line that is not
  // a stored event (malformed JSON, no known kind first, no readable timestamp): stored lines
  // always are, but the log is plain text that people may edit.
  bool Read(simdjson::ondemand::object event, EventViews* out);
  // The same, for a document of a buffer that outlives the views: strings then point into that
  // buffer (no copies), and the few with escape sequences are kept in *escaped, so the views stay
  // valid after the parser moves on (how several threads read files ahead of the fold).
  bool ReadDurable(simdjson::ondemand::object event, std::deque<std::string>* escaped,
                   EventViews* out);
  // The same from JSON text (tests, the simulator).
  bool ReadJson(std::string_view json, EventViews* out);

  // Events of other kinds are read up to their timestamp only: `kind` and the time are set, the
  // rest of the view is empty, and the rest of the line is not looked at (so a line malformed
  // past its timestamp still reads). For a reader that folds only some kinds (Learner::kinds).
  void set_read_whole(KindSet kinds) { read_whole_ = kinds; }
  // Of a review read whole, the optional fields outside `fields` are skipped, not parsed; their
  // views stay empty. For a reader whose rules read only some (Parts::FieldsOfReviews).
  void set_review_fields(ReviewFields fields) { review_fields_ = fields; }
  void set_scope(const ReadScope& scope) {
    read_whole_ = scope.kinds;
    review_fields_ = scope.review;
  }

  // Reads a line of a kind not read whole without a JSON parser, as Read would, when it starts
  // the way ingest writes one: `{"kind":K,"id":I,"timestamp":T` then `,` or `}` (the id optional;
  // the three strings plain printable ASCII), with a known kind and a readable timestamp, and
  // ends with `}` (a torn or truncated line is left to the parser, which reports it). False
  // for every other line, which Read then reads (the kinds read whole, and lines written some
  // other way, which only a hand edit makes). A reader of some kinds reads most of the log this
  // way: the lines it skips cost a search for their end, not a parse.
  bool ReadHeaderOnly(std::string_view line, EventViews* out) const;

 private:
  bool ReadFields(simdjson::ondemand::object event, EventViews* out);
  simdjson::ondemand::parser parser_;
  std::string padded_;
  KindSet read_whole_ = KindSet::All();
  ReviewFields review_fields_ = ReviewFields::All();
  // For a `meta` written other than as ingest writes it, read for its sessionFatigue alone.
  simdjson::ondemand::parser meta_parser_;
  std::string meta_padded_;
};

// The event's timestamp, whatever its kind.
int64_t EventTime(const EventViews& event);

// Registers a `work` event's product (its views then point at the registry's copies), or resolves a
// feedback's references (the reviewed work product and comparison options given as {"id"[,
// "version"]}) against the products registered before it. REQUIRES: called for every event, in log
// order.
void ResolveInLogOrder(WorkRegistry* registry, EventViews* event);

}  // namespace kaizen::learn
