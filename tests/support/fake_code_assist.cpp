// The fake token endpoint and Code Assist API.
#include "tests/support/fake_code_assist.h"

#include "protocol/base/json.h"

namespace lathe::testing {
namespace {

std::string wrapped(const std::string& text) {
  return json::buildObject([&](json::Writer& w) {
    json::object(w, "response", [&] {
      json::array(w, "candidates", [&] {
        json::object(w, [&] {
          json::object(w, "content", [&] {
            json::put(w, "role", "model");
            json::array(w, "parts", [&] { json::object(w, [&] { json::put(w, "text", text); }); });
          });
          json::put(w, "finishReason", "STOP");
          json::put(w, "index", 0);
        });
      });
      json::object(w, "usageMetadata", [&] {
        json::put(w, "promptTokenCount", 10);
        json::put(w, "candidatesTokenCount", 2);
        json::put(w, "totalTokenCount", 12);
      });
    });
    json::put(w, "traceId", "trace-1");
  });
}

}  // namespace

FakeCodeAssist::FakeCodeAssist() {
  auto& server = http_.server;
  server.Post("/token", [this](const httplib::Request& req, httplib::Response& res) {
    record(req);
    std::lock_guard lock(mutex_);
    if (tokenStatus_ != 200) {
      res.status = tokenStatus_;
      res.set_content(R"({"error":"invalid_grant","error_description":"Token has been expired or revoked."})", "application/json");
      return;
    }
    ++tokens_;
    const bool fresh = formValue(req.body, "grant_type") == "authorization_code";
    res.set_content(json::buildObject([&](json::Writer& w) {
                      json::put(w, "access_token", "access-" + std::to_string(tokens_));
                      if (fresh) json::put(w, "refresh_token", "refresh-fresh");
                      json::put(w, "expires_in", 3600);
                      json::put(w, "scope", "https://www.googleapis.com/auth/cloud-platform");
                      json::put(w, "token_type", "Bearer");
                    }),
                    "application/json");
  });
  auto answer = [this](const httplib::Request& req, httplib::Response& res) {
    record(req);
    std::lock_guard lock(mutex_);
    const std::string& path = req.path;
    if (path.ends_with(":loadCodeAssist")) return res.set_content(load_, "application/json");
    if (path.ends_with(":onboardUser")) return res.set_content(onboard_, "application/json");
    if (path.ends_with(":countTokens")) return res.set_content(R"({"totalTokens":42})", "application/json");
    if (refuseModel_ > 0) {
      --refuseModel_;
      res.status = 401;
      return res.set_content(R"({"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}})",
                             "application/json");
    }
    if (path.ends_with(":streamGenerateContent")) return res.set_content("data: " + wrapped(reply_) + "\r\n\r\n", "text/event-stream");
    res.set_content(wrapped(reply_), "application/json");
  };
  server.Post(R"(/v1internal:[A-Za-z]+)", answer);
  server.Get(R"(/v1internal/operations/.+)", [this](const httplib::Request& req, httplib::Response& res) {
    record(req);
    std::lock_guard lock(mutex_);
    res.set_content(operation_, "application/json");
  });
  http_.start();
}

void FakeCodeAssist::record(const httplib::Request& req) {
  std::lock_guard lock(mutex_);
  seen_.push_back({req.method, req.path, req.get_header_value("Authorization"), req.body});
}

void FakeCodeAssist::setLoad(std::string json) {
  std::lock_guard lock(mutex_);
  load_ = std::move(json);
}

void FakeCodeAssist::setOnboard(std::string firstAnswer, std::string operationAnswer) {
  std::lock_guard lock(mutex_);
  onboard_ = std::move(firstAnswer);
  operation_ = std::move(operationAnswer);
}

void FakeCodeAssist::setReply(std::string text) {
  std::lock_guard lock(mutex_);
  reply_ = std::move(text);
}

void FakeCodeAssist::refuseTokens(int status) {
  std::lock_guard lock(mutex_);
  tokenStatus_ = status;
}

void FakeCodeAssist::refuseModelCalls(int count) {
  std::lock_guard lock(mutex_);
  refuseModel_ = count;
}

std::vector<SeenRequest> FakeCodeAssist::requests() const {
  std::lock_guard lock(mutex_);
  return seen_;
}

std::vector<SeenRequest> FakeCodeAssist::requestsTo(const std::string& path) const {
  std::vector<SeenRequest> out;
  for (auto& seen : requests()) {
    if (seen.path == path) out.push_back(std::move(seen));
  }
  return out;
}

std::string FakeCodeAssist::formValue(const std::string& body, const std::string& name) {
  httplib::Params params;
  httplib::detail::parse_query_text(body, params);
  auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

}  // namespace lathe::testing
