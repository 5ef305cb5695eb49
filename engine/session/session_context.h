// The session's context, given to the model at the start of the conversation
// (before the person's first words, and again when a loaded session goes on):
// date, operating system, workspace folders, a bounded folder tree of each
// (ignore files honoured), the git branch and whether the tree has changes,
// and the context files the session's extensions bring.
#pragma once

#include <string>

#include "engine/session/folder_tree.h"
#include "engine/model/content.h"
#include "protocol/base/cancel.h"
#include "tools/core/workspace.h"

namespace lathe::engine {

struct SessionContextOptions {
  size_t treeItems = 200;  // shared by all roots
  bool git = true;
  // The context files of the session's extensions, as blocks: where Gemini
  // CLI 0.61 puts them, in <loaded_context><extension_context> at the end.
  std::string extensionContext;
};

// The text of the context part: "<session_context>…</session_context>".
std::string buildSessionContext(const tools::Workspace& workspace, const SessionContextOptions& options,
                                const CancelToken& cancel);

// Whether a part is such a context (it is not the person's words).
bool isSessionContext(const Part& part);

// Today's date in the local zone ("Friday, November 27, 2026"); any thread.
std::string todayLong();

}  // namespace lathe::engine
