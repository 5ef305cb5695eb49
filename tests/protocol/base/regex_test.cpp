// protocol/base/regex.h
#include <catch2/catch.hpp>

#include "protocol/base/regex.h"

using namespace lathe;

TEST_CASE("Regex: searches anywhere, names bad patterns, bounds runaway ones") {
  auto git = Regex::compile(R"("command":"git (status|log))");
  REQUIRE(git);
  CHECK(git->search(R"({"command":"git log -1"})") == Regex::Match::yes);
  CHECK(git->search(R"({"command":"git push"})") == Regex::Match::no);
  auto nul = Regex::compile(R"(\x00"a":1\x00)");
  REQUIRE(nul);
  CHECK(nul->search(std::string("{\0\"a\":1\0}", 9)) == Regex::Match::yes);
  auto bad = Regex::compile("(unclosed");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("invalid regular expression \"(unclosed\"") == 0);
  auto runaway = Regex::compile("(a+)+$");
  REQUIRE(runaway);
  CHECK(runaway->search(std::string(40, 'a') + "!") == Regex::Match::tooComplex);
}
