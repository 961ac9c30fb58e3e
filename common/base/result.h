#pragma once
// A value, or the sentence saying why there is none: what a function returns when failing is
// an expected outcome its caller branches on and reports (a state file that does not parse,
// a record that breaks a rule). exit_status.h states the one way to fail; this is its
// "small result" for the case where the caller needs to know why. (std::expected is C++23 and
// not available to every compiler the suite builds with.)

#include <optional>
#include <string>
#include <utility>

namespace fleet {

template <typename T>
class Result {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): a value converts to its success.
  Result(T value) : value_(std::move(value)) {}

  // No value, because of `problem` (a sentence for a person, never empty).
  static Result failure(std::string problem) {
    Result result;
    result.problem_ = std::move(problem);
    return result;
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }

  // The value; only when ok().
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

  // Why there is no value; "" when ok().
  const std::string& problem() const { return problem_; }

 private:
  Result() = default;
  std::optional<T> value_;
  std::string problem_;
};

}  // namespace fleet
