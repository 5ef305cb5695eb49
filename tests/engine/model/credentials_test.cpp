// Credentials kept for the person: mode 600, read back whole, refused when
// others could have written them, removed on logout; and the provider they
// shape (methods offered per API, keys from the editor or the environment).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "engine/model/authenticated_provider.h"
#include "engine/model/google/cached_login.h"
#include "engine/model/credential_store.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

TEST_CASE("kept credentials are the owner's alone and come back whole") {
  TempDir dir;
  CredentialStore store((dir.path / "auth/credentials.json").string());
  auto none = store.load();
  REQUIRE(none);
  CHECK_FALSE(*none);

  Credentials given{"gateway", "k", "https://gw.example", {{"Authorization", "Bearer t"}, {"X-Team", "a"}}};
  REQUIRE(store.save(given));
  struct stat st{};
  REQUIRE(::stat(store.path().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto loaded = store.load();
  REQUIRE(loaded);
  REQUIRE(*loaded);
  CHECK((*loaded)->method == "gateway");
  CHECK((*loaded)->apiKey == "k");
  CHECK((*loaded)->baseUrl == "https://gw.example");
  CHECK((*loaded)->headers == given.headers);

  ::chmod(store.path().c_str(), 0644);
  auto exposed = store.load();
  REQUIRE_FALSE(exposed);
  CHECK(exposed.error().message.find("can be read by other users") != std::string::npos);

  REQUIRE(store.remove());
  REQUIRE(store.remove());  // twice is fine
  auto gone = store.load();
  REQUIRE(gone);
  CHECK_FALSE(*gone);
}

TEST_CASE("the provider offers the methods of its API and refuses a method it does not offer") {
  TempDir dir;
  ProviderOptions gemini;
  gemini.google.loginPath = (dir.path / "home/.gemini/oauth_creds.json").string();
  auto provider = AuthenticatedProvider::create(gemini, "", CredentialStore((dir.path / "c.json").string()));
  REQUIRE(provider);
  auto methods = (*provider)->methods(false);
  REQUIRE(methods.size() == 3);
  CHECK(methods[0].id == "gemini-api-key");
  CHECK(methods[0].meta == R"({"api-key":{"provider":"google"}})");
  CHECK(methods[1].id == "vertex-ai");
  CHECK(methods[2].id == "gateway");
  CHECK(methods[2].meta == R"({"gateway":{"protocol":"google","restartRequired":"false"}})");
  // Log in with Google only where it can work: the editor shows its page, or a login is kept.
  auto withUrls = (*provider)->methods(true);
  REQUIRE(withUrls.size() == 4);
  CHECK(withUrls[0].id == "oauth-personal");
  REQUIRE(google::writeCachedLogin(gemini.google.loginPath, google::CachedLogin{"a", "r", "", "Bearer", "", std::nullopt}));
  CHECK((*provider)->methods(false).size() == 4);
  auto wrong = (*provider)->authenticate(Credentials{"openai-api-key", "k", "", {}});
  REQUIRE_FALSE(wrong);
  CHECK_FALSE(std::filesystem::exists(dir.path / "c.json"));

  ProviderOptions openai;
  openai.api = ModelApi::openai;
  auto other = AuthenticatedProvider::create(openai, "", CredentialStore((dir.path / "o.json").string()));
  REQUIRE(other);
  REQUIRE((*other)->methods(true).size() == 1);
  CHECK((*other)->methods(true)[0].id == "openai-api-key");
  REQUIRE((*other)->authenticate(Credentials{"openai-api-key", "sk-1", "", {}}));
  CHECK(std::filesystem::exists(dir.path / "o.json"));
}

TEST_CASE("a key already in the environment is used without being copied to disk") {
  TempDir dir;
  ProviderOptions options;
  options.apiKey = "env-key";
  auto provider = AuthenticatedProvider::create(options, "", CredentialStore((dir.path / "c.json").string()));
  REQUIRE(provider);
  REQUIRE((*provider)->authenticate(Credentials{"gemini-api-key", "", "", {}}));
  CHECK_FALSE(std::filesystem::exists(dir.path / "c.json"));
}
