// loadCodeAssist, then onboardUser when the person has no tier yet.
#include "engine/model/code_assist/project_setup.h"

#include <algorithm>
#include <cctype>

#include "engine/model/code_assist/code_assist_wire.h"

namespace lathe::engine::code_assist {
namespace {

constexpr std::chrono::milliseconds kPollEvery{5'000};
constexpr int kMaxPolls = 60;  // five minutes of onboarding

Error projectMissing(const LoadResponse& load) {
  std::string reasons;
  for (const auto& tier : load.ineligibleTiers) {
    if (tier.reasonMessage.empty()) continue;
    reasons += (reasons.empty() ? "" : "; ") + tier.reasonMessage;
  }
  if (!reasons.empty()) return makeError(Errc::auth_required, "Log in with Google cannot be used with this account: " + reasons);
  return makeError(Errc::auth_required,
                   "This Google account needs a Google Cloud project for Gemini: set GOOGLE_CLOUD_PROJECT (or "
                   "GOOGLE_CLOUD_PROJECT_ID) to your project's id, then log in again.");
}

// An account Google wants verified first says where.
std::optional<Error> validationNeeded(const LoadResponse& load) {
  if (load.currentTier) return std::nullopt;
  for (const auto& tier : load.ineligibleTiers) {
    if (tier.reasonCode == "VALIDATION_REQUIRED" && !tier.validationUrl.empty()) {
      return makeError(Errc::auth_required, "Google asks you to verify your account before Gemini can be used (" +
                                                tier.reasonMessage + "): open " + tier.validationUrl +
                                                ", then log in again.");
    }
  }
  return std::nullopt;
}

Tier onboardingTier(const LoadResponse& load) {
  for (const auto& tier : load.allowedTiers) {
    if (tier.isDefault) return tier;
  }
  return {"legacy-tier", "", false};
}

}  // namespace

Result<std::string> setUpProject(const SetupCalls& calls, const std::string& namedProject, const CancelToken& cancel) {
  if (!namedProject.empty() && std::all_of(namedProject.begin(), namedProject.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return makeError(Errc::invalid_params, "GOOGLE_CLOUD_PROJECT is \"" + namedProject +
                                               "\", a project number: set it to the project's id (such as my-project-123).");
  }
  auto answer = calls.post("loadCodeAssist", buildLoadRequest(namedProject), cancel);
  if (!answer) return answer.error();
  auto load = parseLoadResponse(*answer);
  if (!load) return load.error();
  if (auto needed = validationNeeded(*load)) return *needed;
  if (load->currentTier) {
    if (!load->project.empty()) return load->project;
    if (!namedProject.empty()) return namedProject;
    return projectMissing(*load);
  }
  const Tier tier = onboardingTier(*load);
  auto started = calls.post("onboardUser", buildOnboardRequest(tier.id, namedProject), cancel);
  if (!started) return started.error();
  auto operation = parseOperation(*started);
  for (int polls = 0; operation && !operation->done && !operation->name.empty(); ++polls) {
    if (polls >= kMaxPolls) return makeError(Errc::timeout, "Setting up Gemini for this Google account did not finish in five minutes; try again.");
    if (!calls.sleep(kPollEvery, cancel)) return makeError(Errc::cancelled, "cancelled");
    auto polled = calls.get(operation->name, cancel);
    if (!polled) return polled.error();
    operation = parseOperation(*polled);
  }
  if (!operation) return operation.error();
  if (!operation->project.empty()) return operation->project;
  if (!namedProject.empty()) return namedProject;
  return projectMissing(*load);
}

}  // namespace lathe::engine::code_assist
