// The context hooks of a new session.
#include "engine/context/context_hooks.h"

#include <memory>

#include "engine/commands/command_registry.h"
#include "engine/context/context_manager.h"
#include "engine/context/loop_detector.h"
#include "engine/context/session_title.h"

namespace lathe::engine {

ContextManager& addContextManagement(Session& session) {
  auto manager = std::make_shared<ContextManager>(session);
  session.addHooks(manager);
  if (session.config().context.loopDetection) {
    Session* owner = &session;  // the hooks live and die with the session
    session.addHooks(std::make_shared<LoopDetector>(LoopCheckModel{session.provider(), [owner] { return owner->model(); }},
                                                    [owner](const acp::Notice& notice) { owner->notify(notice); }));
  }
  return *manager;  // owned by the session
}

void addContextHooks(Session& session, CommandRegistry& commands) {
  ContextManager* raw = &addContextManagement(session);  // owned by the session, like its commands: no cycle
  (void)commands.add(SlashCommand{
      "compress", "Replace the older part of the conversation with a summary, to free context", std::nullopt,
      [raw](const CommandContext& context) -> Result<CommandOutcome> {
        TurnStop stop = raw->compressNow(context.history, context.cancel);
        if (!stop.message.empty()) context.say(stop.message);
        return CommandOutcome::done(stop.reason);
      },
      ""});
  if (session.config().context.titles) session.addHooks(std::make_shared<TitleWriter>(session));
}

}  // namespace lathe::engine
