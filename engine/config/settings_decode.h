// Readers for the settings keys whose values need checking beyond their JSON
// type (ranges, file names, nested objects); the rows of settings_table.cpp
// point at them. Each reports problems on the source's reader, naming the
// file and the field. Pure; any thread.
#pragma once

#include "engine/config/settings_table.h"

namespace lathe::engine::decode {

void modelChoices(SettingSource& in, Settings& out);          // model.choices
void contextLimits(SettingSource& in, Settings& out);         // model.contextLimits
void generationConfig(SettingSource& in, Settings& out);      // model.generationConfig
void pricing(SettingSource& in, Settings& out);               // model.pricing
void compressionThreshold(SettingSource& in, Settings& out);  // model.compressionThreshold
void summarizeToolOutput(SettingSource& in, Settings& out);   // model.summarizeToolOutput
void sandbox(SettingSource& in, Settings& out);               // tools.sandbox
void truncateThreshold(SettingSource& in, Settings& out);     // tools.truncateToolOutputThreshold
void contextFileName(SettingSource& in, Settings& out);       // context.fileName
void discoveryMaxDirs(SettingSource& in, Settings& out);      // context.discoveryMaxDirs
void programs(SettingSource& in, Settings& out);              // mcpServers and the discovery commands
void agentOverrides(SettingSource& in, Settings& out);        // agents.overrides
void policyPaths(SettingSource& in, Settings& out);           // policyPaths
void adminPolicyPaths(SettingSource& in, Settings& out);      // adminPolicyPaths
void hooks(SettingSource& in, Settings& out);                 // hooks (problems are kept, never fail the file)

}  // namespace lathe::engine::decode
