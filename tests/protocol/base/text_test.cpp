// protocol/base/text.h
#include <catch2/catch.hpp>

#include "protocol/base/text.h"

using namespace lathe;

TEST_CASE("text: trim drops blanks at both ends, or only the given ones", "[text]") {
  CHECK(text::trim("  \t a b \r\n\f\v") == "a b");
  CHECK(text::trim(" \n ").empty());
  CHECK(text::trim("").empty());
  CHECK(text::trim("x\n", " \t") == "x\n");
  CHECK(text::trimLeft("  a ") == "a ");
  CHECK(text::trimRight("  a ") == "  a");
}

TEST_CASE("text: lower changes ASCII letters only", "[text]") {
  CHECK(text::lower("ReadME.MD") == "readme.md");
  CHECK(text::lower("ÄB") == "\xc3\x84" "b");
}

TEST_CASE("text: join puts the separator between items only", "[text]") {
  CHECK(text::join({}, ", ").empty());
  CHECK(text::join({"a"}, ", ") == "a");
  CHECK(text::join({"a", "b", "c"}, ", ") == "a, b, c");
}

TEST_CASE("text: firstLine keeps the first line, cut on a character boundary", "[text]") {
  CHECK(text::firstLine("one\ntwo", 10) == "one");
  CHECK(text::firstLine("abcdef", 6) == "abcdef");
  CHECK(text::firstLine("abcdef", 3) == "abc…");
  CHECK(text::firstLine("aé", 2) == "a…");  // é is two bytes: not split
  CHECK(text::firstLine("", 5).empty());
}
