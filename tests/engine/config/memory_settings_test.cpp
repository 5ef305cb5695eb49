// Settings for context files: context.fileName (a name or a list) and
// context.discoveryMaxDirs, read with the other settings.
#include <catch2/catch.hpp>

#include "engine/config/settings.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

Result<Settings> read(const std::string& text) {
  TempDir dir;
  auto file = dir.write("settings.json", text);
  Settings settings;
  if (auto status = mergeSettingsFile(file.string(), settings); !status) return status.error();
  return settings;
}

}  // namespace

TEST_CASE("context.fileName is a name or a list of names") {
  auto one = read(R"({"context": {"fileName": "AGENTS.md"}})");
  REQUIRE(one);
  CHECK(one->contextFileNames == std::vector<std::string>{"AGENTS.md"});
  auto list = read(R"({"context": {"fileName": ["GEMINI.md", "AGENTS.md"], "discoveryMaxDirs": 50}})");
  REQUIRE(list);
  CHECK(list->contextFileNames == std::vector<std::string>{"GEMINI.md", "AGENTS.md"});
  CHECK(list->contextDiscoveryMaxDirs == 50);
  auto none = read(R"({"model": {"name": "m"}})");
  REQUIRE(none);
  CHECK_FALSE(none->contextFileNames);
}

TEST_CASE("a context.fileName that names a folder or nothing is an error naming the field") {
  for (const char* bad : {R"({"context": {"fileName": "../secrets.md"}})", R"({"context": {"fileName": []}})",
                          R"({"context": {"fileName": ["ok.md", "a/b.md"]}})", R"({"context": {"fileName": 7}})",
                          R"({"context": {"discoveryMaxDirs": -1}})"}) {
    auto settings = read(bad);
    INFO(bad);
    REQUIRE_FALSE(settings);
    CHECK(settings.error().message.find("context.") != std::string::npos);
  }
}
