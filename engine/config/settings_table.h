// Every settings key Lathe honours, one row each: who may set it, how a later
// value meets an earlier one, when it applies, how it is read from a file and
// how it shapes an AgentConfig. Reading files (settings.h), sorting a
// workspace's keys and applying them per session (workspace_settings.h),
// building the process config (server/main.cpp) and granting widening keys
// after consent all go through these rows; README.md's settings table lists
// the same names, scopes, merge rules and times (a unit test compares them).
// The table is constant; any thread.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "engine/config/agent_config.h"
#include "engine/config/settings.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// Who may set a key.
enum class KeyScope {
  tuning,    // anyone; a workspace's applies without asking (it narrows or tunes)
  widening,  // a workspace's lets more run unasked (for some values): only with consent
  personal,  // the person's files only (--settings included); a workspace's is ignored
  programs,  // starts programs; a workspace's wait for consent (workspace_programs.h)
};

// How a later value (a workspace's, --settings' again) meets an earlier one.
enum class SettingMerge {
  replace,  // the later value wins
  byName,   // per entry (model, tool, provider or server name): a later entry wins
  add,      // the later list is added to the earlier one
  narrow,   // only what both lists keep (an empty meet keeps the earlier list)
};

// When a key takes effect.
enum class SettingApplies {
  processStart,  // once, from the person's files and --settings
  perSession,    // again for each session, from its workspace's file and --settings
};

// A widening key the person allowed at a session's first turn.
enum class WideningGrant {
  now,          // applies from that turn on
  nextSession,  // fixed when a session starts (the sandbox): from the next one
};

// What a row's reader gets: the object holding the key, the key itself and the file.
struct SettingSource {
  json::Reader& parent;  // e.g. the file's "model" object for model.name
  const char* key;       // the last part of the name
  SettingsScope file;
  const EnvLookup& env;
  std::string where() const { return parent.path() + "." + key; }  // the file and field, for errors
};

struct SettingKey {
  std::string_view name;  // dotted, as in the file
  KeyScope scope;
  SettingMerge merge;
  SettingApplies applies;
  // personal keys in a workspace's file: read (so a broken value breaks the
  // file) or skipped, and whether the person is told it was ignored.
  bool readInWorkspace = true;
  bool toldInWorkspace = false;
  WideningGrant grant = WideningGrant::now;  // widening keys
  // Decodes the key from its parent object into settings (later files
  // override); problems are reported on the reader. Null: decoded by
  // another row (the discovery commands, with mcpServers).
  void (*read)(SettingSource& source, Settings& out) = nullptr;
  bool (*isSet)(const Settings&) = nullptr;
  // Moves the value from one Settings to another, leaving `from` unset.
  void (*take)(Settings& from, Settings& to) = nullptr;
  // Widening keys: whether this value widens (null: any value does); an
  // error message (without the file and field) for a value that is no value.
  Result<bool> (*widens)(const Settings&) = nullptr;
  // Widening keys: the value as a member of the consent text.
  void (*consentText)(json::Writer&, const Settings&) = nullptr;
  // Merges a set value into the config, leaving what the command line pinned
  // (config.overrides). Null: server/ applies it (provider, proxy, login).
  Status (*apply)(AgentConfig&, const Settings&) = nullptr;
  std::string_view doc;
};

// All rows, in README order.
std::span<const SettingKey> settingsTable();

// The row of a dotted name; null for a name Lathe does not read.
const SettingKey* findSetting(std::string_view name);

std::string_view toString(KeyScope scope);
std::string_view toString(SettingMerge merge);
std::string_view toString(SettingApplies applies);

// Applies every set key of `settings` that takes effect at `when` (process
// start: all of them, as the process config is built) over `config`.
Status applySettings(AgentConfig& config, const Settings& settings, SettingApplies when);

}  // namespace lathe::engine
