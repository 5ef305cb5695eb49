// The model provider as the person's credentials make it: from the
// environment and settings (security.auth.selectedType) at start, then from
// what the editor gives through ACP authenticate (kept in a CredentialStore
// for later runs) until logout. Requests go to the provider built from the
// credentials in force when they start; any thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/credential_store.h"
#include "engine/model/model_provider.h"
#include "engine/model/provider_setup.h"

namespace lathe::engine {

struct AuthMethod {
  std::string id;  // Gemini CLI's ids where it has the method
  std::string name;
  std::string description;
};

class AuthenticatedProvider final : public ModelProvider {
 public:
  // `base`: flags and environment; `selectedType`: settings
  // security.auth.selectedType (empty: none). Stored credentials apply over both.
  static Result<std::shared_ptr<AuthenticatedProvider>> create(ProviderOptions base, std::string selectedType,
                                                               CredentialStore store);

  // The methods an editor may offer the person for this provider's API.
  std::vector<AuthMethod> methods() const;
  // Uses `given` from now on and keeps it. A key left empty is taken from the
  // environment; a method that still lacks what it needs is an error that
  // changes nothing.
  Status authenticate(Credentials given);
  // Forgets the kept credentials: back to the environment's.
  Status logout();

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  bool supportsWebSearch() const override;

 private:
  AuthenticatedProvider(ProviderOptions base, std::string selectedType, CredentialStore store);
  // The options for these credentials (none: the environment's and settings').
  Result<ProviderOptions> optionsFor(const std::optional<Credentials>& credentials) const;
  std::shared_ptr<ModelProvider> current() const;

  ProviderOptions base_;
  std::string selectedType_;
  CredentialStore store_;
  mutable std::mutex mutex_;
  std::shared_ptr<ModelProvider> current_;
};

}  // namespace lathe::engine
