// The small kits of protocol/base: Result with its own error type, enum
// tables, and the JSON object helpers.
#include <catch2/catch.hpp>

#include "protocol/base/enum_names.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

using namespace lathe;

namespace {

struct Refusal {
  int code = 0;
  std::string why;
};

Result<int, Refusal> half(int n) {
  if (n % 2 != 0) return Refusal{7, "odd"};
  return n / 2;
}

Result<void, Refusal> even(int n) {
  if (n % 2 != 0) return Refusal{9, "odd"};
  return {};
}

enum class Colour { red, green, blue };
constexpr EnumName<Colour> kColours[] = {
    {Colour::red, "red"}, {Colour::green, "green"}, {Colour::green, "verde"}, {Colour::blue, "blue"}};

}  // namespace

TEST_CASE("Result carries a value or an error of the caller's type") {
  auto ok = half(8);
  REQUIRE(ok);
  CHECK(*ok == 4);
  auto bad = half(3);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == 7);
  CHECK(bad.error().why == "odd");

  CHECK(even(2).ok());
  auto odd = even(5);
  REQUIRE_FALSE(odd);
  CHECK(odd.error().code == 9);

  Result<std::string> plain = makeError(Errc::io, "disk full");  // Error by default
  REQUIRE_FALSE(plain);
  CHECK(plain.error().code == Errc::io);
}

TEST_CASE("an enum table spells each value by its first row and reads every row") {
  CHECK(std::string(nameOf(kColours, Colour::green)) == "green");
  CHECK(std::string(nameOf(kColours, Colour::blue)) == "blue");
  CHECK(valueOf(kColours, "verde") == Colour::green);
  CHECK(valueOf(kColours, "red") == Colour::red);
  CHECK_FALSE(valueOf(kColours, "Red"));
  CHECK_FALSE(valueOf(kColours, ""));
  static_assert(valueOf(kColours, "blue") == Colour::blue);  // usable at compile time
}

TEST_CASE("object and array helpers write the same bytes as the writer's own calls") {
  auto byHand = json::build([](json::Writer& w) {
    w.StartObject();
    json::put(w, "a", 1);
    json::key(w, "b");
    w.StartArray();
    w.StartObject();
    json::put(w, "c", "d");
    w.EndObject();
    w.EndArray();
    json::key(w, "e");
    w.StartObject();
    w.EndObject();
    w.EndObject();
  });
  auto byHelpers = json::buildObject([](json::Writer& w) {
    json::put(w, "a", 1);
    json::array(w, "b", [&] { json::object(w, [&] { json::put(w, "c", "d"); }); });
    json::object(w, "e", [] {});
  });
  CHECK(byHelpers == R"({"a":1,"b":[{"c":"d"}],"e":{}})");
  CHECK(byHelpers == byHand);
}
