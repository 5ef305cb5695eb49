// Files only their owner may read (mode 600), replaced whole: the new text is
// written to a temporary file beside the old, synced, then renamed over it,
// so a reader sees the old file or the new one, never a part. Unsynced (for
// state written on every turn), the file survives the process dying at any
// point but may lose its last version to a power cut, as appended records do.
#pragma once

#include <string>

#include "protocol/base/result.h"

namespace lathe {

Status writePrivateFile(const std::string& path, const std::string& text, bool synced = true);

}  // namespace lathe
