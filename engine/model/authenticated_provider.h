// The model provider as the person's credentials make it: from the
// environment and settings (security.auth.selectedType) at start, then from
// what the editor gives through ACP authenticate (kept in a CredentialStore
// for later runs) until logout. Requests go to the provider built from the
// credentials in force when they start; any thread.
#pragma once

#include <functional>
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
  std::string meta;  // the JSON of its _meta as Gemini CLI gives it ("api-key", "gateway"); empty: none
};

// What a login that needs the person may ask of the editor (Log in with Google).
struct LoginPrompt {
  // Shows the person a page to log in at, without waiting for them; empty
  // when the editor cannot show one.
  std::function<void(const std::string& url)> showUrl;
  // The person is back from that page and logged in.
  std::function<void()> finished;
};

class AuthenticatedProvider final : public ModelProvider {
 public:
  // `base`: flags and environment; `selectedType`: settings
  // security.auth.selectedType (empty: none). Stored credentials apply over both.
  static Result<std::shared_ptr<AuthenticatedProvider>> create(ProviderOptions base, std::string selectedType,
                                                               CredentialStore store);

  // The methods an editor may offer the person for this provider's API; Log
  // in with Google only when it can work (the editor shows login pages, or a
  // login is cached already).
  std::vector<AuthMethod> methods(bool editorShowsUrls) const;
  // Uses `given` from now on and keeps it. A key left empty is taken from the
  // environment; a method that still lacks what it needs is an error that
  // changes nothing. Log in with Google uses the cached login when it still
  // works, else asks the person through `prompt` (blocking until they are
  // back, for at most five minutes, or `cancel`).
  Status authenticate(Credentials given, const LoginPrompt& prompt = {}, const CancelToken& cancel = {});
  // Forgets the kept credentials (and a Google login in force): back to the
  // environment's.
  Status logout();

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken& cancel) override;
  Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) override;
  std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) override;
  bool supportsWebSearch() const override;
  Status credentialsReady() const override;

 private:
  AuthenticatedProvider(ProviderOptions base, std::string selectedType, CredentialStore store);
  // The options for these credentials (none: the environment's and settings').
  Result<ProviderOptions> optionsFor(const std::optional<Credentials>& credentials) const;
  std::shared_ptr<ModelProvider> current() const;
  // Log in with Google: the cached login if it still works, else a fresh one.
  Result<std::shared_ptr<ModelProvider>> googleLogin(const ProviderOptions& options, const LoginPrompt& prompt,
                                                     const CancelToken& cancel);

  ProviderOptions base_;
  std::string selectedType_;
  CredentialStore store_;
  mutable std::mutex mutex_;
  std::shared_ptr<ModelProvider> current_;
  bool googleInForce_ = false;  // guarded by mutex_
};

}  // namespace lathe::engine
