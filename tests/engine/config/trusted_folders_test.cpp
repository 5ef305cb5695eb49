// Gemini CLI's folder trust as Lathe reads it: the variables first, then the
// trusted-folders file's rules (the folder, its parent, distrust; the
// longest rule that covers the folder decides; links resolved), a broken
// file counting for nothing and reported, and where the file is.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "engine/config/trusted_folders.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

struct Home {
  testing::TempDir dir;
  std::map<std::string, std::string> vars{{"HOME", dir.str()}};
  EnvLookup env() const {
    return [this](const std::string& name) -> std::optional<std::string> {
      auto it = vars.find(name);
      return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
  }
  void rules(const std::string& json) {
    std::filesystem::create_directories(dir.path / ".gemini");
    std::ofstream(dir.path / ".gemini/trustedFolders.json") << json;
  }
  std::string folder(const std::string& relative) const {
    auto path = dir.path / relative;
    std::filesystem::create_directories(path);
    return path.string();
  }
};

}  // namespace

TEST_CASE("trusted folders: no variable and no file is no answer") {
  Home home;
  auto verdict = geminiFolderTrust(home.folder("p"), home.env());
  CHECK(verdict.trust == FolderTrust::unknown);
  CHECK(verdict.problem.empty());
}

TEST_CASE("trusted folders: the variables win over the file") {
  Home home;
  home.rules(R"({")" + home.folder("p") + R"(": "DO_NOT_TRUST"})");
  home.vars["GEMINI_CLI_TRUST_WORKSPACE"] = "true";
  auto verdict = geminiFolderTrust(home.folder("p"), home.env());
  CHECK(verdict.trust == FolderTrust::trusted);
  CHECK(verdict.why == "GEMINI_CLI_TRUST_WORKSPACE=true");
  home.vars["GEMINI_CLI_TRUST_WORKSPACE"] = "false";
  CHECK(geminiFolderTrust(home.folder("p"), home.env()).trust == FolderTrust::untrusted);
  home.vars["GEMINI_CLI_TRUST_WORKSPACE"] = "yes";  // neither: the file decides
  CHECK(geminiFolderTrust(home.folder("p"), home.env()).trust == FolderTrust::untrusted);
  home.vars.erase("GEMINI_CLI_TRUST_WORKSPACE");
  home.vars["GEMINI_RESTRICTED_MODE"] = "true";
  home.rules(R"({")" + home.folder("p") + R"(": "TRUST_FOLDER"})");
  CHECK(geminiFolderTrust(home.folder("p"), home.env()).trust == FolderTrust::untrusted);
}

TEST_CASE("trusted folders: a rule covers its folder and below, TRUST_PARENT the folder above") {
  Home home;
  home.rules("// comments are allowed\n{\"" + home.folder("work/a") + "\": \"TRUST_FOLDER\", \"" +
             home.folder("mine/project") + "\": \"TRUST_PARENT\"}");
  CHECK(geminiFolderTrust(home.folder("work/a"), home.env()).trust == FolderTrust::trusted);
  CHECK(geminiFolderTrust(home.folder("work/a/deep/er"), home.env()).trust == FolderTrust::trusted);
  CHECK(geminiFolderTrust(home.folder("work/ab"), home.env()).trust == FolderTrust::unknown);  // not a prefix match
  CHECK(geminiFolderTrust(home.folder("work"), home.env()).trust == FolderTrust::unknown);
  auto sibling = geminiFolderTrust(home.folder("mine/other"), home.env());
  CHECK(sibling.trust == FolderTrust::trusted);
  CHECK_THAT(sibling.why, Catch::Contains("TRUST_PARENT"));
}

TEST_CASE("trusted folders: the longest rule that covers the folder decides") {
  Home home;
  home.rules("{\"" + home.folder("w") + "\": \"TRUST_FOLDER\", \"" + home.folder("w/untrusted") +
             "\": \"DO_NOT_TRUST\"}");
  CHECK(geminiFolderTrust(home.folder("w/x"), home.env()).trust == FolderTrust::trusted);
  auto verdict = geminiFolderTrust(home.folder("w/untrusted/y"), home.env());
  CHECK(verdict.trust == FolderTrust::untrusted);
  CHECK_THAT(verdict.why, Catch::Contains("DO_NOT_TRUST"));
}

TEST_CASE("trusted folders: paths are compared with their links resolved") {
  Home home;
  const std::string real = home.folder("real");
  std::filesystem::create_directory_symlink(real, home.dir.path / "link");
  home.rules("{\"" + (home.dir.path / "link").string() + "\": \"TRUST_FOLDER\"}");
  CHECK(geminiFolderTrust(real, home.env()).trust == FolderTrust::trusted);
}

TEST_CASE("trusted folders: a broken file counts for nothing and says why") {
  Home home;
  home.rules("{\"" + home.folder("p") + "\": \"TRUST_EVERYTHING\"}");
  auto verdict = geminiFolderTrust(home.folder("p"), home.env());
  CHECK(verdict.trust == FolderTrust::unknown);
  CHECK_THAT(verdict.problem, Catch::Contains("trustedFolders.json") && Catch::Contains("TRUST_EVERYTHING"));
  home.rules("[1, 2");
  verdict = geminiFolderTrust(home.folder("p"), home.env());
  CHECK(verdict.trust == FolderTrust::unknown);
  CHECK_FALSE(verdict.problem.empty());
}

TEST_CASE("trusted folders: the file's place follows GEMINI_CLI_HOME and its own variable") {
  Home home;
  CHECK(trustedFoldersPath(home.env()) == home.dir.str() + "/.gemini/trustedFolders.json");
  home.vars["GEMINI_CLI_HOME"] = "/cli-home";
  CHECK(trustedFoldersPath(home.env()) == "/cli-home/.gemini/trustedFolders.json");
  home.vars["GEMINI_CLI_TRUSTED_FOLDERS_PATH"] = "/elsewhere/trust.json";
  CHECK(trustedFoldersPath(home.env()) == "/elsewhere/trust.json");
}
