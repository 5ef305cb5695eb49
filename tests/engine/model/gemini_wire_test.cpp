// Tests for the Gemini wire mapping: request bodies from the history model,
// response chunks and error bodies back.
#include <catch2/catch.hpp>

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/base/json.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

json::Document parsed(const std::string& text) {
  auto doc = json::parse(text);
  REQUIRE(doc.ok());
  return std::move(doc).value();
}

std::string str(const json::Value& v) {
  REQUIRE(v.IsString());
  return std::string(v.GetString(), v.GetStringLength());
}

Part callPart(std::string id, std::string name, std::string args) {
  Part p;
  p.functionCall = FunctionCall{std::move(id), std::move(name), json::Raw{std::move(args)}};
  return p;
}

Part responsePart(std::string id, std::string name, std::string response) {
  Part p;
  p.functionResponse = FunctionResponse{std::move(id), std::move(name), json::Raw{std::move(response)}};
  return p;
}

}  // namespace

TEST_CASE("request body: contents, roles and function call/response pairing", "[gemini_wire]") {
  Part thought = Part::makeText("Planning the read");
  thought.thought = true;
  Part call = callPart("call-1", "read_file", R"({"file_path":"/a.txt"})");
  call.thoughtSignature = "c2lnbmF0dXJl";
  std::vector<Content> history{
      {Role::user, {Part::makeText("read a.txt")}},
      {Role::model, {thought, call}},
      {Role::user, {responsePart("call-1", "read_file", R"({"output":"hello"})")}},
  };
  ModelRequest request;
  request.model = "gemini-2.5-flash";
  request.systemInstruction = "You are Lathe.";
  request.contents = &history;
  std::vector<tools::ToolDeclaration> tools{{"read_file", "Reads a file.", R"({"type":"object"})"}};
  request.tools = &tools;
  request.config.temperature = 0.5;
  request.config.topP = 1;
  request.config.maxOutputTokens = 1024;

  auto doc = parsed(gemini::buildRequestBody(request));
  const auto& contents = doc["contents"];
  REQUIRE(contents.Size() == 3);
  CHECK(str(contents[0]["role"]) == "user");
  CHECK(str(contents[0]["parts"][0]["text"]) == "read a.txt");
  CHECK(str(contents[1]["role"]) == "model");

  const auto& thoughtPart = contents[1]["parts"][0];
  CHECK(str(thoughtPart["text"]) == "Planning the read");
  CHECK(thoughtPart["thought"].GetBool());

  const auto& callJson = contents[1]["parts"][1];
  CHECK_FALSE(callJson.HasMember("text"));
  CHECK_FALSE(callJson.HasMember("thought"));
  CHECK(str(callJson["thoughtSignature"]) == "c2lnbmF0dXJl");
  CHECK(str(callJson["functionCall"]["id"]) == "call-1");
  CHECK(str(callJson["functionCall"]["name"]) == "read_file");
  CHECK(str(callJson["functionCall"]["args"]["file_path"]) == "/a.txt");

  CHECK(str(contents[2]["role"]) == "user");
  const auto& responseJson = contents[2]["parts"][0]["functionResponse"];
  CHECK(str(responseJson["id"]) == "call-1");
  CHECK(str(responseJson["name"]) == "read_file");
  CHECK(str(responseJson["response"]["output"]) == "hello");

  CHECK(str(doc["systemInstruction"]["parts"][0]["text"]) == "You are Lathe.");
  const auto& decls = doc["tools"][0]["functionDeclarations"];
  REQUIRE(decls.IsArray());
  CHECK(str(decls[0]["name"]) == "read_file");
  CHECK(str(decls[0]["parametersJsonSchema"]["type"]) == "object");

  const auto& config = doc["generationConfig"];
  CHECK(config["temperature"].GetDouble() == Approx(0.5));
  CHECK(config["topP"].GetDouble() == Approx(1.0));
  CHECK(config["maxOutputTokens"].GetInt64() == 1024);
  CHECK(config["thinkingConfig"]["includeThoughts"].GetBool());
}

TEST_CASE("request body: empty fields are omitted", "[gemini_wire]") {
  std::vector<Content> history{
      {Role::user, {Part::makeText("hi")}},
      {Role::model, {}},         // no parts: the API would reject it
      {Role::model, {Part{}}},   // a part with nothing in it
      {Role::user, {callPart("", "ls", "")}},
      {Role::user, {responsePart("", "ls", "")}},
  };
  ModelRequest request;
  request.model = "m";
  request.contents = &history;
  request.config.includeThoughts = false;

  SECTION("no declarations, no system instruction, no config") {
    auto doc = parsed(gemini::buildRequestBody(request));
    CHECK_FALSE(doc.HasMember("systemInstruction"));
    CHECK_FALSE(doc.HasMember("tools"));
    CHECK_FALSE(doc.HasMember("generationConfig"));
    const auto& contents = doc["contents"];
    REQUIRE(contents.Size() == 3);
    const auto& call = contents[1]["parts"][0]["functionCall"];
    CHECK_FALSE(call.HasMember("id"));
    CHECK(call["args"].IsObject());
    CHECK(call["args"].ObjectEmpty());
    const auto& response = contents[2]["parts"][0]["functionResponse"];
    CHECK_FALSE(response.HasMember("id"));
    CHECK(response["response"].IsObject());
  }
  SECTION("an empty declaration array is omitted too") {
    std::vector<tools::ToolDeclaration> none;
    request.tools = &none;
    auto doc = parsed(gemini::buildRequestBody(request));
    CHECK_FALSE(doc.HasMember("tools"));
  }
  SECTION("no contents at all") {
    request.contents = nullptr;
    auto doc = parsed(gemini::buildRequestBody(request));
    REQUIRE(doc["contents"].IsArray());
    CHECK(doc["contents"].Empty());
  }
}

TEST_CASE("count tokens: only the contents are sent, totalTokens read back", "[gemini_wire]") {
  std::vector<Content> history{{Role::user, {Part::makeText("hi")}}};
  std::vector<tools::ToolDeclaration> declarations{{"ls", "list", R"({"type":"object"})"}};
  ModelRequest request;
  request.model = "m";
  request.contents = &history;
  request.systemInstruction = "be brief";
  request.tools = &declarations;
  auto doc = parsed(gemini::buildCountTokensBody(request));
  CHECK(doc.MemberCount() == 1);  // a CountTokensRequest has no systemInstruction, tools or config
  CHECK(std::string(doc["contents"][0]["parts"][0]["text"].GetString()) == "hi");
  CHECK(gemini::parseCountTokens(R"({"totalTokens": 42, "promptTokensDetails": []})").value() == 42);
  CHECK_FALSE(gemini::parseCountTokens(R"({"totalTokens": "42"})"));
  CHECK_FALSE(gemini::parseCountTokens("not json"));
}

TEST_CASE("request body: inline data and signed text", "[gemini_wire]") {
  Part image;
  image.inlineData = InlineData{"image/png", "iVBORw0KGgo="};
  Part signedText = Part::makeText("");
  signedText.thoughtSignature = "sig==";
  std::vector<Content> history{{Role::user, {image}}, {Role::model, {signedText}}};
  ModelRequest request;
  request.contents = &history;
  auto doc = parsed(gemini::buildRequestBody(request));
  const auto& data = doc["contents"][0]["parts"][0]["inlineData"];
  CHECK(str(data["mimeType"]) == "image/png");
  CHECK(str(data["data"]) == "iVBORw0KGgo=");
  const auto& signedJson = doc["contents"][1]["parts"][0];
  CHECK(str(signedJson["text"]).empty());
  CHECK(str(signedJson["thoughtSignature"]) == "sig==");
}

TEST_CASE("request body: an MCP tool's audio follows its function response as inlineData", "[gemini_wire]") {
  // The shape the tool scheduler gives a tool result with audio: the
  // response part, then the audio as an inline part of the same user turn.
  Part audio;
  audio.inlineData = InlineData{"audio/wav", "UklGRg=="};
  std::vector<Content> history{{Role::user, {Part::makeText("play it")}},
                               {Role::model, {callPart("c1", "test__sound", "{}")}},
                               {Role::user, {responsePart("c1", "test__sound", R"({"output":"[audio/wav content attached below]"})"), audio}}};
  ModelRequest request;
  request.contents = &history;
  auto doc = parsed(gemini::buildRequestBody(request));
  const auto& parts = doc["contents"][2]["parts"];
  REQUIRE(parts.Size() == 2);
  CHECK(parts[0].HasMember("functionResponse"));
  const auto& data = parts[1]["inlineData"];
  CHECK(str(data["mimeType"]) == "audio/wav");
  CHECK(str(data["data"]) == "UklGRg==");
}

TEST_CASE("response chunk: text, thoughts, calls, usage and finish reason", "[gemini_wire]") {
  const std::string body = R"({
    "candidates": [{
      "content": {"role": "model", "parts": [
        {"text": "**Planning**\n\nI will list.", "thought": true},
        {"text": "Listing now."},
        {"functionCall": {"name": "list_directory", "args": {"dir_path": "/w", "ignore": ["a"]}, "id": "fc-9"},
         "thoughtSignature": "AbC="},
        {"executableCode": {"code": "x"}}
      ]},
      "finishReason": "STOP",
      "safetyRatings": []
    }],
    "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 12, "thoughtsTokenCount": 7,
                      "totalTokenCount": 119, "trafficType": "ON_DEMAND"},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "r1"
  })";
  auto chunk = gemini::parseResponseChunk(body);
  REQUIRE(chunk.ok());
  CHECK(chunk->rawJson == body);
  REQUIRE(chunk->parts.size() == 3);  // the unknown part kind is skipped
  CHECK(chunk->parts[0].thought);
  CHECK(*chunk->parts[0].text == "**Planning**\n\nI will list.");
  CHECK_FALSE(chunk->parts[1].thought);
  CHECK(*chunk->parts[1].text == "Listing now.");
  const Part& call = chunk->parts[2];
  REQUIRE(call.functionCall);
  CHECK_FALSE(call.text);
  CHECK(call.functionCall->name == "list_directory");
  CHECK(call.functionCall->id == "fc-9");
  CHECK(call.thoughtSignature == "AbC=");
  auto args = parsed(call.functionCall->args.text);
  CHECK(str(args["dir_path"]) == "/w");
  CHECK(str(args["ignore"][0]) == "a");
  REQUIRE(chunk->finishReason);
  CHECK(*chunk->finishReason == FinishReason::stop);
  REQUIRE(chunk->usage);
  CHECK(chunk->usage->promptTokens == 100);
  CHECK(chunk->usage->candidatesTokens == 12);
  CHECK(chunk->usage->thoughtsTokens == 7);
  CHECK(chunk->usage->totalTokens == 119);
}

TEST_CASE("response chunk: partial chunks and odd shapes", "[gemini_wire]") {
  SECTION("text only, no finish reason, no usage") {
    auto chunk = gemini::parseResponseChunk(R"({"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}]})");
    REQUIRE(chunk.ok());
    REQUIRE(chunk->parts.size() == 1);
    CHECK(*chunk->parts[0].text == "Hel");
    CHECK_FALSE(chunk->finishReason);
    CHECK_FALSE(chunk->usage);
  }
  SECTION("usage only") {
    auto chunk = gemini::parseResponseChunk(R"({"usageMetadata":{"promptTokenCount":5}})");
    REQUIRE(chunk.ok());
    CHECK(chunk->parts.empty());
    REQUIRE(chunk->usage);
    CHECK(chunk->usage->promptTokens == 5);
    CHECK(chunk->usage->totalTokens == 0);
  }
  SECTION("finish reason without content") {
    auto chunk = gemini::parseResponseChunk(R"({"candidates":[{"finishReason":"MAX_TOKENS","index":0}]})");
    REQUIRE(chunk.ok());
    CHECK(chunk->parts.empty());
    CHECK(*chunk->finishReason == FinishReason::max_tokens);
  }
  SECTION("a function call without args or id") {
    auto chunk = gemini::parseResponseChunk(R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"now"}}]}}]})");
    REQUIRE(chunk.ok());
    REQUIRE(chunk->parts.size() == 1);
    CHECK(chunk->parts[0].functionCall->id.empty());
    CHECK(chunk->parts[0].functionCall->args.text == "{}");
  }
  SECTION("a signature on a part of its own is kept as empty text") {
    auto chunk = gemini::parseResponseChunk(R"({"candidates":[{"content":{"parts":[{"thoughtSignature":"S"}]}}]})");
    REQUIRE(chunk.ok());
    REQUIRE(chunk->parts.size() == 1);
    CHECK(chunk->parts[0].thoughtSignature == "S");
    REQUIRE(chunk->parts[0].text);
    CHECK(chunk->parts[0].text->empty());
  }
  SECTION("a blocked prompt") {
    auto chunk = gemini::parseResponseChunk(
        R"({"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]},"usageMetadata":{"promptTokenCount":3}})");
    REQUIRE(chunk.ok());
    CHECK(chunk->parts.empty());
    REQUIRE(chunk->finishReason);
    CHECK(*chunk->finishReason == FinishReason::safety);
  }
  SECTION("wrong types in known fields are skipped") {
    auto chunk = gemini::parseResponseChunk(R"({"candidates":{"x":1},"usageMetadata":"lots"})");
    REQUIRE(chunk.ok());
    CHECK(chunk->parts.empty());
    CHECK_FALSE(chunk->usage);
  }
}

TEST_CASE("response chunk: errors", "[gemini_wire]") {
  SECTION("an error body") {
    auto chunk = gemini::parseResponseChunk(
        R"({"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}})");
    REQUIRE_FALSE(chunk.ok());
    CHECK(chunk.error().code == Errc::model);
    CHECK(chunk.error().message ==
          "Gemini API error 503 (UNAVAILABLE): The model is overloaded. Please try again later.");
  }
  SECTION("not JSON") {
    auto chunk = gemini::parseResponseChunk("{\"candidates\": [");
    REQUIRE_FALSE(chunk.ok());
    CHECK(chunk.error().code == Errc::model);
    CHECK_THAT(chunk.error().message, Catch::Contains("not valid JSON"));
  }
  SECTION("not an object") {
    auto chunk = gemini::parseResponseChunk("[1,2]");
    REQUIRE_FALSE(chunk.ok());
  }
}

TEST_CASE("API error bodies", "[gemini_wire]") {
  const std::string badKey = R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
    "status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",
    "reason":"API_KEY_INVALID","domain":"googleapis.com"}]}})";
  auto error = gemini::parseApiError(badKey);
  REQUIRE(error);
  CHECK(error->code == 400);
  CHECK(error->status == "INVALID_ARGUMENT");
  CHECK(error->reason == "API_KEY_INVALID");
  CHECK_FALSE(error->retryDelay);
  CHECK(gemini::describeHttpError(400, badKey) ==
        "Gemini API error 400 (INVALID_ARGUMENT): API key not valid. Please pass a valid API key.");

  const std::string quota = R"([{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED",
    "details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34.5s"}]}}])";
  auto limited = gemini::parseApiError(quota);
  REQUIRE(limited);
  CHECK(limited->code == 429);
  REQUIRE(limited->retryDelay);
  CHECK(limited->retryDelay->count() == 34500);

  CHECK(gemini::describeHttpError(502, "<html>Bad\ngateway</html>") == "Gemini API error 502: <html>Bad gateway</html>");
  CHECK(gemini::describeHttpError(500, "") == "Gemini API error 500 (the reply had no details)");
  CHECK(gemini::describeHttpError(404, R"({"error":{"message":"models/x is not found"}})") ==
        "Gemini API error 404: models/x is not found");
  CHECK_FALSE(gemini::parseApiError(R"({"candidates":[]})"));
  CHECK_FALSE(gemini::parseApiError("nope"));
}

TEST_CASE("response chunk rebuilt from a parsed chunk parses back the same", "[gemini_wire]") {
  auto original = gemini::parseResponseChunk(R"({"candidates":[{"content":{"parts":[
      {"text":"think","thought":true},{"text":"say"},
      {"functionCall":{"name":"f","args":{"k":[1,2]},"id":"i"},"thoughtSignature":"s"}]},
      "finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2,"thoughtsTokenCount":3,"totalTokenCount":6}})");
  REQUIRE(original.ok());
  auto again = gemini::parseResponseChunk(gemini::buildResponseChunk(*original));
  REQUIRE(again.ok());
  REQUIRE(again->parts.size() == 3);
  CHECK(again->parts[0].thought);
  CHECK(*again->parts[0].text == "think");
  CHECK(*again->parts[1].text == "say");
  CHECK(again->parts[2].functionCall->name == "f");
  CHECK(again->parts[2].functionCall->id == "i");
  CHECK(again->parts[2].functionCall->args.text == R"({"k":[1,2]})");
  CHECK(again->parts[2].thoughtSignature == "s");
  CHECK(*again->finishReason == FinishReason::stop);
  CHECK(again->usage->thoughtsTokens == 3);
  CHECK(again->usage->totalTokens == 6);
}
