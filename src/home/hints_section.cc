// The learned section of a hints file, and writing it below the marker.
#include "home/hints_section.h"

#include "home/learned_state.h"
#include "home/serve_client.h"
#include "render/hints.h"
#include "store/file_system.h"

namespace kaizen::home {

Result<bool> WriteHintsSection(const std::string& section, const std::string& file) {
  store::FileSystem* fs = store::DefaultFileSystem();
  std::string existing;
  if (fs->Exists(file)) {
    KZ_ASSIGN_OR_RETURN(existing, fs->ReadFrom(file, 0));
  }
  const std::string updated = render::SpliceHints(existing, section);
  if (updated == existing) return false;
  KZ_RETURN_IF_ERROR(fs->WriteFileAtomic(file, updated, /*durable=*/true));
  return true;
}

Result<std::string> LearnedHintsSection(const Common& c, const std::string& project) {
  LearnedState loaded;
  KZ_RETURN_IF_ERROR(LoadLearnedStateUnserved(c, &loaded, render::kHintsParts));
  WarnUnreadable(loaded.scan);
  return render::HintsSection(render::HintsInputFrom(*loaded.learner, loaded.now_ms, project));
}

}  // namespace kaizen::home
