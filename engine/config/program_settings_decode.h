// Decoding the parts of a settings file that start programs (see
// program_settings.h), and the text consent is given to. Pure; any thread.
#pragma once

#include <string>

#include "engine/config/program_settings.h"
#include "protocol/base/json.h"

namespace lathe::engine {

// Reads `mcpServers` and the discovery commands of one settings file (the
// reader is the file's root object). Problems are reported on the reader,
// naming the file and field. Servers of a later file replace those of the
// same name, so call it in file order on the same ProgramSettings.
void decodeProgramSettings(json::Reader& root, tools::mcp::ServerConfig::Origin origin, const EnvLookup& env,
                           ProgramSettings& out);

// The program parts of one file as canonical JSON text (what consent is
// given to): its `mcpServers` object and the two commands, exactly as
// written, before any expansion. Empty when the file defines none.
std::string programSettingsText(const json::Value& root);

}  // namespace lathe::engine
