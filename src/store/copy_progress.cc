#include "store/copy_progress.h"

#include <map>

namespace kaizen::store {

CopyProgress::~CopyProgress() {
  if (thread_.joinable()) (void)Wait();
}

void CopyProgress::Start(std::function<Status()> copy) {
  // Under the lock: Finish waits for it, so no Wait sees the copy ended before thread_ is set.
  std::lock_guard<std::mutex> l(mu_);
  thread_ = std::thread([this, copy = std::move(copy)] { Finish(copy()); });
}

void CopyProgress::SetWhole(bool whole) {
  {
    std::lock_guard<std::mutex> l(mu_);
    whole_ = whole;
  }
  changed_.notify_all();
}

void CopyProgress::Add(CopiedPiece piece) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (held_ + piece.bytes.size() > kHeldBytes) {
      piece.bytes = std::string();
    } else {
      held_ += piece.bytes.size();
    }
    pieces_.push_back(std::move(piece));
  }
  changed_.notify_all();
}

std::string CopyProgress::Reusable() {
  std::lock_guard<std::mutex> l(mu_);
  if (spare_.empty()) return std::string();
  std::string bytes = std::move(spare_.back());
  spare_.pop_back();
  bytes.clear();
  return bytes;
}

void CopyProgress::Recycle(std::string bytes) {
  std::lock_guard<std::mutex> l(mu_);
  if (spare_.size() < 4) spare_.push_back(std::move(bytes));
}

void CopyProgress::Finish(Status status) {
  {
    std::lock_guard<std::mutex> l(mu_);
    finished_ = std::move(status);
  }
  changed_.notify_all();
}

bool CopyProgress::Whole() {
  std::unique_lock<std::mutex> l(mu_);
  changed_.wait(l, [&] { return whole_.has_value() || finished_.has_value(); });
  return whole_.value_or(false);
}

std::optional<CopiedPiece> CopyProgress::Piece(size_t k) {
  std::unique_lock<std::mutex> l(mu_);
  changed_.wait(l, [&] { return k < pieces_.size() || finished_.has_value(); });
  if (k >= pieces_.size()) return std::nullopt;
  CopiedPiece& held = pieces_[k];
  held_ -= held.bytes.size();
  return CopiedPiece{held.file, held.start, held.end, held.lines_before, std::move(held.bytes)};
}

Status CopyProgress::Wait() {
  {
    std::unique_lock<std::mutex> l(mu_);
    changed_.wait(l, [&] { return finished_.has_value(); });
  }
  // Whoever waits first joins: once Wait returns, the copy's thread is gone (a fork after it, as
  // the checkpoint writer makes, copies no thread that was mid-way through anything).
  std::call_once(joined_, [&] {
    if (thread_.joinable()) thread_.join();
  });
  std::lock_guard<std::mutex> l(mu_);
  return *finished_;
}

namespace {

std::mutex registry_mu;
std::map<std::string, std::shared_ptr<CopyProgress>>& Registry() {
  static auto* copies = new std::map<std::string, std::shared_ptr<CopyProgress>>;
  return *copies;
}

}  // namespace

void SetCopyInProgress(const std::string& home, std::shared_ptr<CopyProgress> progress) {
  std::lock_guard<std::mutex> l(registry_mu);
  if (progress) {
    Registry()[home] = std::move(progress);
  } else {
    Registry().erase(home);
  }
}

std::shared_ptr<CopyProgress> CopyInProgress(const std::string& home) {
  std::lock_guard<std::mutex> l(registry_mu);
  auto it = Registry().find(home);
  return it == Registry().end() ? nullptr : it->second;
}

Result<std::shared_ptr<CopyProgress>> WholeCopyToFollow(const std::string& home) {
  std::shared_ptr<CopyProgress> copy = CopyInProgress(home);
  if (copy == nullptr || copy->Whole()) return copy;
  KZ_RETURN_IF_ERROR(copy->Wait());
  return std::shared_ptr<CopyProgress>();
}

}  // namespace kaizen::store
