// Errors as values: Result<T, E> carries a T or an E (an Error unless a caller
// needs a richer failure). Used across every module boundary instead of
// exceptions. Header-only, thread-agnostic.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace lathe {

// What went wrong, independent of how it is reported. server/ maps these to
// JSON-RPC codes in one place; tools map them to their own typed errors.
enum class Errc {
  invalid_params,
  invalid_request,
  method_not_found,
  parse_error,
  not_found,
  forbidden,  // e.g. a path outside the workspace
  auth_required,
  cancelled,
  timeout,
  io,
  http,
  model,
  internal,
};

struct Error {
  Errc code = Errc::internal;
  std::string message;
};

inline Error makeError(Errc code, std::string message) { return Error{code, std::move(message)}; }

template <class T, class E = Error>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<T, E>, "a value and its error need distinct types");

 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(E error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

template <class E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const E& error() const { return *error_; }

 private:
  std::optional<E> error_;
};

using Status = Result<void>;

}  // namespace lathe
