// ACP's unstable session/fork: a new session that goes on from a copy of an
// existing one's conversation. Its answer is session/new's (the new id, the
// modes and the options). Pure.
#pragma once

#include "protocol/acp/session.h"
#include "protocol/acp/session_store.h"

namespace lathe::acp {

// Which session to copy, and where the copy runs: session/load's params.
using ForkSessionRequest = LoadSessionRequest;
using ForkSessionResponse = NewSessionResponse;

}  // namespace lathe::acp
