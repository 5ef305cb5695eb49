// A test double for the engine's EditorClient: records updates and permission
// asks, answers asks with a scripted function (default: reject).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "engine/session/editor_client.h"

namespace lathe::testing {

class FakeEditor final : public engine::EditorClient {
 public:
  std::function<Result<acp::RequestPermissionResponse>(const acp::RequestPermissionRequest&)> answer =
      [](const acp::RequestPermissionRequest&) { return select("reject_once"); };
  std::vector<acp::RequestPermissionRequest> asked;
  std::vector<acp::SessionUpdate> updates;
  acp::ClientCapabilities caps;  // what the test's editor offers (nothing by default)
  // Answers elicitations (offered when caps say so); default: the person declines.
  std::function<Result<acp::ElicitationResponse>(const acp::ElicitationRequest&, const CancelToken&)> elicitAnswer =
      [](const acp::ElicitationRequest&, const CancelToken&) {
        acp::ElicitationResponse r;
        r.action = acp::ElicitationResponse::Action::decline;
        return Result<acp::ElicitationResponse>(r);
      };
  std::vector<acp::ElicitationRequest> elicited;
  std::mutex mutex;
  std::condition_variable changed;

  static Result<acp::RequestPermissionResponse> select(const std::string& optionId) {
    acp::RequestPermissionResponse r;
    r.cancelled = false;
    r.optionId = optionId;
    return r;
  }

  void sendUpdate(const std::string&, const acp::SessionUpdate& u) override {
    {
      std::lock_guard lock(mutex);
      updates.push_back(u);
    }
    changed.notify_all();
  }
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& r,
                                                           const CancelToken&) override {
    {
      std::lock_guard lock(mutex);
      asked.push_back(r);
    }
    return answer(r);
  }
  acp::ClientCapabilities capabilities() const override { return caps; }
  Result<acp::ElicitationResponse> elicit(const acp::ElicitationRequest& r, const CancelToken& cancel) override {
    {
      std::lock_guard lock(mutex);
      elicited.push_back(r);
    }
    return elicitAnswer(r, cancel);
  }
  Result<std::string> readTextFile(const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor buffers in this test");
  }
  Status writeTextFile(const std::string&, const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor buffers in this test");
  }

  template <class T>
  std::vector<T> all() {
    std::lock_guard lock(mutex);
    std::vector<T> out;
    for (auto& u : updates) {
      if (auto* t = std::get_if<T>(&u)) out.push_back(*t);
    }
    return out;
  }

  // Waits (up to the guard) until `count` updates of kind T came, e.g. a
  // session title that follows the answer; all of them so far.
  template <class T>
  std::vector<T> waitFor(size_t count, std::chrono::milliseconds guard = std::chrono::seconds(10)) {
    auto has = [&] {
      size_t n = 0;
      for (auto& u : updates) n += std::holds_alternative<T>(u);
      return n >= count;
    };
    {
      std::unique_lock lock(mutex);
      changed.wait_for(lock, guard, has);
    }
    return all<T>();
  }

  // Waits (up to the guard) until an update of kind T satisfies `holds`.
  template <class T, class Pred>
  bool waitUntil(Pred holds, std::chrono::milliseconds guard = std::chrono::seconds(10)) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, guard, [&] {
      for (auto& u : updates) {
        if (auto* t = std::get_if<T>(&u); t && holds(*t)) return true;
      }
      return false;
    });
  }
};

}  // namespace lathe::testing
