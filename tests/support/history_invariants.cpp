// History invariant checks for generate requests (see the header). Pure; any thread.
#include "tests/support/history_invariants.h"

#include <set>

#include "protocol/base/json.h"

namespace lathe::testing {
namespace {

struct Call {
  std::string name;
  std::string id;
};

std::string at(size_t index) { return "contents[" + std::to_string(index) + "]"; }

// The functionCall (or functionResponse) parts of one content, in order.
std::vector<Call> partsOf(const json::Value& parts, const char* kind) {
  std::vector<Call> out;
  for (const auto& part : parts.GetArray()) {
    if (!part.IsObject()) continue;
    const json::Value* inner = json::find(part, kind);
    if (!inner || !inner->IsObject()) continue;
    out.push_back(Call{json::getStr(*inner, "name").value_or(""), json::getStr(*inner, "id").value_or("")});
  }
  return out;
}

void checkDeclarations(const json::Value& body, std::vector<std::string>& out) {
  const json::Value* tools = json::find(body, "tools");
  if (!tools || !tools->IsArray()) return;
  std::set<std::string> seen;
  for (const auto& tool : tools->GetArray()) {
    if (!tool.IsObject()) continue;
    const json::Value* decls = json::find(tool, "functionDeclarations");
    if (!decls || !decls->IsArray()) continue;
    for (const auto& decl : decls->GetArray()) {
      auto name = decl.IsObject() ? json::getStr(decl, "name") : std::nullopt;
      if (!name || name->empty()) {
        out.push_back("tools: a function declaration has no name");
      } else if (!seen.insert(*name).second) {
        out.push_back("tools: function declaration '" + *name + "' appears twice");
      }
    }
  }
}

// Checks that `responses` (from the user content at index) answer `calls`
// (from the model content before it), one for one and in order.
void checkAnswers(const std::vector<Call>& calls, const std::vector<Call>& responses, size_t index,
                  std::vector<std::string>& out) {
  if (responses.size() != calls.size()) {
    out.push_back(at(index) + ": " + std::to_string(calls.size()) + " functionCall(s) in " + at(index - 1) +
                  " but " + std::to_string(responses.size()) + " functionResponse(s)");
  }
  for (size_t i = 0; i < calls.size() && i < responses.size(); ++i) {
    const Call& call = calls[i];
    const Call& response = responses[i];
    if (call.name != response.name) {
      out.push_back(at(index) + ": functionResponse #" + std::to_string(i) + " is for '" + response.name +
                    "' but the call was '" + call.name + "'");
    }
    if (!call.id.empty() && call.id != response.id) {
      out.push_back(at(index) + ": functionResponse #" + std::to_string(i) + " has id '" + response.id +
                    "' but the call had id '" + call.id + "'");
    }
  }
}

}  // namespace

std::vector<std::string> checkGenerateRequest(std::string_view body) {
  std::vector<std::string> out;
  auto doc = json::parse(body);
  if (!doc) return {"request body is not JSON: " + doc.error().message};
  if (!doc->IsObject()) return {"request body is not a JSON object"};
  const json::Value* contents = json::find(*doc, "contents");
  if (!contents || !contents->IsArray() || contents->Empty()) return {"request has no contents"};

  std::vector<Call> pendingCalls;  // calls of the previous model content
  std::string previousRole;
  const auto& list = contents->GetArray();
  for (size_t i = 0; i < list.Size(); ++i) {
    const json::Value& content = list[static_cast<rapidjson::SizeType>(i)];
    if (!content.IsObject()) {
      out.push_back(at(i) + ": not an object");
      continue;
    }
    std::string role = json::getStr(content, "role").value_or("user");
    const json::Value* parts = json::find(content, "parts");
    if (role != "user" && role != "model") out.push_back(at(i) + ": unknown role '" + role + "'");
    if (!parts || !parts->IsArray() || parts->Empty()) {
      out.push_back(at(i) + ": no parts");
      previousRole = role;
      continue;
    }
    if (i == 0 && role != "user") out.push_back(at(i) + ": the history must start with a user content");
    if (role == "model" && previousRole == "model") out.push_back(at(i) + ": two model contents in a row");

    std::vector<Call> calls = partsOf(*parts, "functionCall");
    std::vector<Call> responses = partsOf(*parts, "functionResponse");
    if (role == "model") {
      if (!pendingCalls.empty()) {
        out.push_back(at(i) + ": functionCall(s) in " + at(i - 1) + " were never answered");
      }
      if (!responses.empty()) out.push_back(at(i) + ": functionResponse in a model content");
      pendingCalls = std::move(calls);
    } else {
      if (!calls.empty()) out.push_back(at(i) + ": functionCall in a user content");
      if (!pendingCalls.empty()) {
        checkAnswers(pendingCalls, responses, i, out);
      } else if (!responses.empty()) {
        out.push_back(at(i) + ": functionResponse without a functionCall in the model content before it");
      }
      pendingCalls.clear();
    }
    previousRole = role;
  }
  if (!pendingCalls.empty()) {
    out.push_back("the last content has functionCall(s) with no functionResponse");
  } else if (previousRole == "model") {
    out.push_back("the history ends with a model content: nothing for the model to answer");
  }
  checkDeclarations(*doc, out);
  return out;
}

}  // namespace lathe::testing
