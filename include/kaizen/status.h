// Errors as values (after absl::Status): a small fixed set of codes that map cleanly to exit
// codes, HTTP statuses and JSON-RPC errors. No exceptions cross the public API.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kaizen {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // the input breaks a rule; the message names field, value and rule
  kNotFound,            // a referenced thing does not exist
  kAlreadyExists,       // a duplicate
  kFailedPrecondition,  // the system is not in a state to do this (e.g. writer poisoned by fsync)
  kResourceExhausted,   // disk full, size caps
  kDataLoss,            // corruption in stored data
  kUnavailable,         // transient: try again
  kInternal,            // a bug
  kIoError,             // the OS refused an operation
};

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
inline Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
inline Status FailedPrecondition(std::string m) {
  return {StatusCode::kFailedPrecondition, std::move(m)};
}
inline Status ResourceExhausted(std::string m) {
  return {StatusCode::kResourceExhausted, std::move(m)};
}
inline Status DataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
inline Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
inline Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
inline Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }

// Result<T> holds a T or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: REQUIRES: !status.ok()

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace kaizen

#define KZ_CONCAT_INNER(a, b) a##b
#define KZ_CONCAT(a, b) KZ_CONCAT_INNER(a, b)

#define KZ_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::kaizen::Status kz_status_ = (expr);    \
    if (!kz_status_.ok()) return kz_status_; \
  } while (0)

#define KZ_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()

#define KZ_ASSIGN_OR_RETURN(lhs, expr) \
  KZ_ASSIGN_OR_RETURN_IMPL(KZ_CONCAT(kz_result_, __LINE__), lhs, expr)
