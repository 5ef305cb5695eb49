// Cooperative cancellation: a token per turn, child tokens per tool call.
// Thread-safe; callbacks run on the thread that calls cancel().
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace lathe {

class CancelToken {
 public:
  // Keeps a callback registered while alive; unregisters on destruction.
  class Registration {
   public:
    Registration();
    Registration(Registration&&) noexcept;
    Registration& operator=(Registration&&) noexcept;
    ~Registration();

   private:
    friend class CancelToken;
    struct Impl;
    std::unique_ptr<Impl> impl_;
  };

  // A token that can never be cancelled (for callers that have no turn).
  CancelToken();
  static CancelToken create();

  // A token cancelled when this one is, or on its own.
  CancelToken child() const;

  void cancel() const;
  bool cancelled() const;

  // Runs fn once when cancelled (at once if already cancelled).
  [[nodiscard]] Registration onCancel(std::function<void()> fn) const;

 private:
  struct State;
  explicit CancelToken(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace lathe
