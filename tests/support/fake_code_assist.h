// Google's side of Log in with Google on 127.0.0.1, for tests: the OAuth token
// endpoint (/token: refresh-token and authorization-code grants) and the Code
// Assist API (/v1internal:loadCodeAssist, :onboardUser, the operation it
// returns, :streamGenerateContent, :generateContent, :countTokens). Every
// request is recorded; answers are set by the test before it starts the
// client. Test-only.
#pragma once

#include <httplib.h>

#include <mutex>
#include <string>
#include <vector>

#include "tests/support/local_http_server.h"

namespace lathe::testing {

struct SeenRequest {
  std::string method;
  std::string path;  // without the query
  std::string authorization;
  std::string body;
};

class FakeCodeAssist {
 public:
  FakeCodeAssist();

  // Answers (set before requests come; guarded all the same).
  void setLoad(std::string json);            // loadCodeAssist's answer
  void setOnboard(std::string firstAnswer, std::string operationAnswer);  // onboardUser, then GET of its operation
  void setReply(std::string text);            // the model's text in generate and stream answers
  void refuseTokens(int status);              // the token endpoint answers with this error status
  void refuseModelCalls(int count);           // this many model calls get 401 first

  std::string tokenUrl() const { return http_.url() + "/token"; }
  std::string endpoint() const { return http_.url(); }  // CODE_ASSIST_ENDPOINT
  std::vector<SeenRequest> requests() const;
  std::vector<SeenRequest> requestsTo(const std::string& path) const;
  // A form field of a token request's body.
  static std::string formValue(const std::string& body, const std::string& name);

 private:
  void record(const httplib::Request& req);

  mutable std::mutex mutex_;
  std::vector<SeenRequest> seen_;
  std::string load_ = R"({"currentTier":{"id":"standard-tier","name":"Standard"},"cloudaicompanionProject":"fake-project"})";
  std::string onboard_ = R"({"name":"operations/op1","done":false})";
  std::string operation_ = R"({"name":"operations/op1","done":true,"response":{"cloudaicompanionProject":{"id":"onboarded-project"}}})";
  std::string reply_ = "Hello through Code Assist.";
  int tokenStatus_ = 200;
  int refuseModel_ = 0;
  int tokens_ = 0;
  LocalHttpServer http_;  // last: stopped before what its handlers use goes
};

}  // namespace lathe::testing
