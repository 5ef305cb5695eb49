// Which Cloud project Log in with Google's requests go to, found as Gemini CLI
// finds it: loadCodeAssist tells the person's tier and project; a person not
// yet set up is onboarded to the tier the API offers by default (a
// long-running operation, polled until done). GOOGLE_CLOUD_PROJECT (or
// GOOGLE_CLOUD_PROJECT_ID) names the person's own project. Errors say what to
// do (set a project, verify the account, why a tier is closed). Blocking
// through the seams it is given; any thread.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine::code_assist {

struct SetupCalls {
  // POST {base}:method with a JSON body; the answer's body.
  std::function<Result<std::string>(const std::string& method, const std::string& body, const CancelToken&)> post;
  // GET {base}/name (a long-running operation).
  std::function<Result<std::string>(const std::string& name, const CancelToken&)> get;
  // Waits `delay`; false when cancelled first.
  std::function<bool(std::chrono::milliseconds delay, const CancelToken&)> sleep;
};

// The project's id.
Result<std::string> setUpProject(const SetupCalls& calls, const std::string& namedProject, const CancelToken& cancel);

}  // namespace lathe::engine::code_assist
