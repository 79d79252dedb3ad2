// `--store URI` / $KAIZEN_STORE: the shared PostgreSQL database a home is the working copy of
// (store/shared_log.h, ingest/store_mirror.h). Opened once per process, before the verb runs, and
// the home brought up to date with it, so every verb reads and writes as it does on a home of its
// own.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "home/common.h"
#include "ingest/store_mirror.h"
#include "kaizen/status.h"
#include "store/shared_log.h"

namespace kaizen::home {

// --store when given, else $KAIZEN_STORE, else empty (the home's files are the log).
std::string ResolveStore(const std::string& given);

// Connects to c->store (when set) and copies what the home lacks; sets c->remote to the
// connection, which *opened keeps. InvalidArgument for a value that names no PostgreSQL database,
// Unavailable when it cannot be reached, FailedPrecondition when the home is not a copy of it.
Status OpenStore(Common* c, std::unique_ptr<store::SharedLog>* opened, bool sync = true);

// OpenStore for a verb that folds the log before it reads it otherwise (analyze, explain, rules,
// context, hints): a new home's first copy runs on a thread while the verb folds each day file as
// it is written (ingest::BackgroundSync; *background keeps it, to be joined before the process
// ends). Any other home is brought up to date first, as OpenStore does.
Status OpenStoreFolding(Common* c, std::unique_ptr<store::SharedLog>* opened,
                        std::unique_ptr<ingest::BackgroundSync>* background);

// Says why OpenStore failed ("kaizen VERB: ...") and returns the exit code: 2 for a value that
// names no database or a home that is not the store's copy (the command is wrong), 3 for a store
// that cannot be reached.
int StoreOpenFailed(std::string_view verb, const Status& s);

}  // namespace kaizen::home
