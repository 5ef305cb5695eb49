// The model and mode pickers of a session.
#include "engine/agent/session_options.h"

#include <algorithm>
#include <cctype>

#include "engine/model/model_routing.h"

namespace lathe::engine {

std::vector<acp::SessionMode> availableModes() {
  return {
      {"default", "Default", "Ask before edits, commands and other changes"},
      {"autoEdit", "Auto edit", "Allow edits inside the workspace; still ask before commands"},
      {"yolo", "YOLO", "Allow every tool call without asking"},
      {"plan", "Plan", "Read-only, writing only plans; approving a plan leaves plan mode"},
  };
}

namespace {

// An auto model is shown by what it does.
acp::ConfigChoice modelChoice(const AgentConfig& config, const std::string& name) {
  const AutoModel* automatic = config.routeAutoModels ? findAutoModel(name) : nullptr;
  if (!automatic) return {name, name, {}};
  return {name, std::string(automatic->displayName),
          "For each prompt a quick classifier picks " + std::string(automatic->pro) + " or " +
              std::string(automatic->flash)};
}

// What each effort means for this model, in the picker's words.
std::string effortMeaning(const std::string& model, Effort effort) {
  GenerationConfig config;
  applyEffort(config, model, effort);
  if (config.thinkingLevel) return "Thinking level " + *config.thinkingLevel;
  if (config.thinkingBudget) return "A thinking budget of " + std::to_string(*config.thinkingBudget) + " tokens";
  if (config.reasoningEffort) return "reasoning_effort " + *config.reasoningEffort;
  return "As the model's settings have it";
}

// The effort picker (ACP category thought_level), for models that think.
std::optional<acp::ConfigOption> effortOption(const Session& session) {
  const std::string model = concreteModel(session.chosenModel());  // an auto model's pro model
  const auto offered = effortsOf(model);
  if (offered.empty()) return std::nullopt;
  acp::ConfigOption option{"effort", "Effort", "How much the model thinks before it answers, from the next request",
                           "thought_level", toString(session.effort()), {}};
  option.choices.push_back({toString(Effort::standard), "Default", effortMeaning(model, Effort::standard)});
  for (Effort effort : offered) {
    std::string name = toString(effort);
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    option.choices.push_back({toString(effort), name, effortMeaning(model, effort)});
  }
  return option;
}

}  // namespace

std::vector<acp::ConfigOption> optionsOf(const Session& session) {
  const std::string chosen = session.chosenModel();
  acp::ConfigOption model{"model", "Model", "The model that answers the next prompt", "model", chosen, {}};
  for (const auto& name : session.config().modelChoices) model.choices.push_back(modelChoice(session.config(), name));
  if (model.choices.empty()) model.choices.push_back({chosen, chosen, {}});
  acp::ConfigOption mode{"mode", "Mode", "What may run without asking", "mode", toString(session.mode()), {}};
  for (const auto& m : availableModes()) mode.choices.push_back({m.id, m.name, m.description});
  std::vector<acp::ConfigOption> options{std::move(model), std::move(mode)};
  if (auto effort = effortOption(session)) options.push_back(std::move(*effort));
  return options;
}

void changeMode(Session& session, EditorClient& editor, ApprovalMode mode, bool announceOptions) {
  session.setMode(mode);
  editor.sendUpdate(session.id(), acp::CurrentModeUpdate{toString(mode)});
  if (announceOptions) editor.sendUpdate(session.id(), acp::ConfigOptionUpdate{optionsOf(session)});
}

Result<std::vector<acp::ConfigOption>> setOption(Session& session, EditorClient& editor, const std::string& configId,
                                                 const std::string& value) {
  if (configId == "mode") {
    auto mode = parseApprovalMode(value);
    if (!mode) return makeError(Errc::invalid_params, "params.value: unknown mode \"" + value + "\"");
    changeMode(session, editor, *mode, false);
  } else if (configId == "model") {
    const auto& choices = session.config().modelChoices;
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end()) {
      return makeError(Errc::invalid_params, "params.value: \"" + value + "\" is not one of the offered models");
    }
    session.setModel(value);
  } else if (configId == "effort") {
    auto effort = parseEffort(value);
    const auto offered = effortsOf(session.model());
    if (!effort || (*effort != Effort::standard && std::find(offered.begin(), offered.end(), *effort) == offered.end())) {
      std::string names = toString(Effort::standard);
      for (Effort e : offered) names += std::string(", ") + toString(e);
      return makeError(Errc::invalid_params, "params.value: \"" + value + "\" is not an effort " + session.model() +
                                                 " offers (" + names + ")");
    }
    session.setEffort(*effort);
  } else {
    return makeError(Errc::invalid_params, "params.configId: no option \"" + configId + "\" (model, mode or effort)");
  }
  return optionsOf(session);
}

}  // namespace lathe::engine
