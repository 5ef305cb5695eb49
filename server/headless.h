// `lathe run "prompt"`: one session in a directory, the answer streamed to
// stdout and tool activity to stderr, for a person or a script.
#pragma once

#include <string>

#include "engine/config/agent_config.h"

namespace lathe::server {

struct HeadlessOptions {
  std::string prompt;
  std::string cwd;
};

// Exit codes: 0 end_turn, 1 error, 3 other stop reasons, 130 cancelled (Ctrl-C).
int runHeadless(const HeadlessOptions& options, engine::AgentConfig config);

}  // namespace lathe::server
