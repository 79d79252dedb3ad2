// A git signal as the `reward` event the one pipeline stores (docs/event-model.md), with an id
// derived from the signal itself so that scanning the same history again records nothing twice.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "model/uuid.h"
#include "signals/git_signals.h"

namespace kaizen::signals {

// A UUID v7 whose 48-bit time is the signal's observed commit time and whose other bits come
// from BLAKE2b (libsodium crypto_generichash) of the detector and the commit shas: the same
// signal always gets the same id, and ingest refuses it as a duplicate the second time.
model::Uuid GitSignalUuid(const GitSignal& s);

// "git:<detector>:<sha12>[:<sha12>]": short, and made only of the signal's identity (detector and
// commits), so scanning again labels it the same; the repository, full commits and agent are in
// the event's `context`.
std::string GitSignalLabel(const GitSignal& s);

// `s` as printable UTF-8: every byte outside a well-formed sequence, and every control character,
// becomes '?' (commit names, paths and ref names are bytes, not always UTF-8).
std::string PrintableUtf8(std::string_view s);

// The agent identity "Name <email>" split into printable UTF-8 name and email (either may be "").
std::pair<std::string, std::string> GitAgentNameEmail(std::string_view identity);

// The reward event, one line of JSON without the newline: kind, id, timestamp (observed),
// signal_id, commit_hash, task_id (merges: the merge, shared by its three signals), signal_type,
// raw_value, signal_value (only when seed 001 has no normalization rule), baseline_seconds,
// source "automatic", confidence, delay_days (observed - the agent's commit), and context
// {source "git", repo, detector, commits (full shas, the agent's first), agent, agent_email}.
// `task_type`, when not empty, is context.task_type: the task type the signal judges when no
// recorded work product has the agent's commit as its version.
std::string GitRewardEvent(const GitSignal& s, std::string_view repo,
                           std::string_view task_type = {});

// A UUID v7 at the human commit's time from BLAKE2b of (agent commit, human commit, path, line):
// the same hunk always gets the same id, so a rescan records it once.
model::Uuid GitCorrectionUuid(const GitCorrection& x);

// The correction event (seed 004) of a human rewrite of agent lines, one line of JSON: session_id
// "git:<agent sha12>", original (the agent's lines) and corrected (the human's), user_id (the
// human author's name), correction_method "human_edit", no correction_type (ingest proposes one
// from the diff), and context {source "git", project (the repository), file, line_start,
// line_end (the agent's lines, numbered in the human commit's parent), new_line_start,
// new_line_end, agent_commit, human_commit, agent, task_type}.
std::string GitCorrectionEvent(const GitCorrection& x, std::string_view repo,
                               std::string_view task_type = {});

}  // namespace kaizen::signals
