#include "store/copy_progress.h"

#include <map>

namespace kaizen::store {

CopyProgress::~CopyProgress() {
  if (thread_.joinable()) (void)Wait();
}

void CopyProgress::Start(std::function<Status()> copy) {
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
    pieces_.push_back(std::move(piece));
  }
  changed_.notify_all();
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
  if (k < pieces_.size()) return pieces_[k];
  return std::nullopt;
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

}  // namespace kaizen::store
