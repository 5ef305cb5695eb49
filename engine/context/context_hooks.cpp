// The context hooks of a new session.
#include "engine/context/context_hooks.h"

#include <memory>

#include "engine/context/context_manager.h"
#include "engine/context/loop_detector.h"
#include "engine/context/session_title.h"

namespace lathe::engine {

void addContextHooks(Session& session) {
  session.addHooks(std::make_shared<ContextManager>(session));
  if (session.config().context.loopDetection) {
    Session* owner = &session;  // the hooks live and die with the session
    session.addHooks(std::make_shared<LoopDetector>(
        LoopCheckModel{session.config().provider, [owner] { return owner->model(); }}));
  }
  if (session.config().context.titles) session.addHooks(std::make_shared<TitleWriter>(session));
}

}  // namespace lathe::engine
