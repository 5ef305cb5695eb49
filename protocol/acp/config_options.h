// ACP session configuration options (the editor's model and mode pickers),
// session/set_config_option and its answer. Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct ConfigChoice {
  std::string value;
  std::string name;
  std::string description;
};

// A single-value selector.
struct ConfigOption {
  std::string id;
  std::string name;
  std::string description;
  std::string category;  // "model", "mode", ...
  std::string currentValue;
  std::vector<ConfigChoice> choices;
};

void writeConfigOptions(json::Writer& w, const std::vector<ConfigOption>& options);

struct SetConfigOptionRequest {
  std::string sessionId;
  std::string configId;
  std::string value;
  static Result<SetConfigOptionRequest> fromJson(const json::Value& params);
};

struct SetConfigOptionResponse {
  std::vector<ConfigOption> configOptions;
  json::Raw toJson() const;
};

}  // namespace lathe::acp
