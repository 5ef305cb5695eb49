// A FileStore that goes through the editor when it can: reads via
// fs/read_text_file (so tools see unsaved buffers) and writes via
// fs/write_text_file (so edits land in open buffers), never writing the disk
// behind the editor's back. Without those capabilities, the disk is used.
// Thread-safe.
#pragma once

#include <memory>
#include <string>

#include "engine/session/editor_client.h"
#include "tools/core/file_store.h"

namespace lathe::engine {

std::shared_ptr<tools::FileStore> makeEditorFileStore(EditorClient& editor, std::string sessionId);

}  // namespace lathe::engine
