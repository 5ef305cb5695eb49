// web_fetch's per-page deadline against servers on 127.0.0.1 that never
// finish their headers, and host names looked up through the resolver seam:
// a resolver that never answers, one that pins a name to the local site.
// Deadlines are short here; the tests wait for the fetch to end and check
// that it ended with the deadline's error, never how fast.
#include <catch2/catch.hpp>

#include <future>
#include <map>

#include "tests/support/trickle_server.h"
#include "tests/tools/web/table_resolver.h"
#include "tests/support/web_test_server.h"
#include "tools/web/page_fetch.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::tools;
using namespace std::chrono_literals;

namespace {

// Never answers; tells the test when it is asked.
class SilentResolver final : public http::Resolver {
 public:
  void lookup(const std::string& host, Answer) override {
    std::lock_guard lock(mutex_);
    asked_.push_back(host);
    if (asked_.size() == 1) first_.set_value();
  }
  std::future<void> firstLookup() { return first_.get_future(); }
  std::vector<std::string> asked() {
    std::lock_guard lock(mutex_);
    return asked_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> asked_;
  std::promise<void> first_;
};

WebFetchOptions shortDeadline(std::shared_ptr<http::Resolver> resolver = nullptr) {
  WebFetchOptions options;
  options.allowPrivateHosts = {"127.0.0.1", "site.test", "never.test"};
  options.timeout = 300ms;
  options.resolver = std::move(resolver);
  return options;
}

}  // namespace

TEST_CASE("web deadline: headers trickled a byte at a time end at the page's deadline", "[web]") {
  // 10 ms a byte, 2,000 bytes of headers: each read is quick, the whole answer
  // takes about 20 s, and then it would succeed.
  TrickleServer server(10ms, 2000);
  REQUIRE(server.start());
  auto page = web::fetchPage(server.url("/trickle"), shortDeadline(), CancelToken());
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::timeout);
  CHECK_THAT(page.error().message, Catch::Contains("Fetching " + server.url("/trickle") + " did not finish within 0.3 s"));
  CHECK_THAT(page.error().message, Catch::Contains("had not sent its complete headers"));
  CHECK(server.connections() == 1);
}

TEST_CASE("web deadline: the trickling server's answer is read whole when the deadline allows it", "[web]") {
  // The same server, short enough to finish: the deadline, not the server, ended the test above.
  TrickleServer server(1ms, 120);
  REQUIRE(server.start());
  auto options = shortDeadline();
  options.timeout = 60s;
  auto page = web::fetchPage(server.url("/trickle"), options, CancelToken());
  REQUIRE(page);
  CHECK(page->body == TrickleServer::kBody);
}

TEST_CASE("web deadline: a DNS lookup that never answers ends at the page's deadline", "[web]") {
  WebTestServer site;
  REQUIRE(site.start());
  auto resolver = std::make_shared<SilentResolver>();
  std::string url = "http://never.test:" + std::to_string(site.port()) + "/page.html";
  auto page = web::fetchPage(url, shortDeadline(resolver), CancelToken());
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::timeout);
  CHECK_THAT(page.error().message, Catch::Contains("Fetching " + url + " did not finish within 0.3 s"));
  CHECK_THAT(page.error().message, Catch::Contains("looking up the address of never.test got no answer"));
  CHECK(resolver->asked() == std::vector<std::string>{"never.test"});
  CHECK(site.paths().empty());
}

TEST_CASE("web deadline: cancelling stops a wait for a DNS answer", "[web]") {
  auto resolver = std::make_shared<SilentResolver>();
  auto asked = resolver->firstLookup();
  auto options = shortDeadline(resolver);
  options.timeout = 600s;  // only the cancellation can end it
  auto cancel = CancelToken::create();
  auto fetch = std::async(std::launch::async, [&] { return web::fetchPage("http://never.test/", options, cancel); });
  asked.wait();
  cancel.cancel();
  auto page = fetch.get();
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::cancelled);
}

TEST_CASE("web resolver: the fetch connects to the address the resolver gave, after checking it", "[web]") {
  WebTestServer site;
  REQUIRE(site.start());
  auto resolver = std::make_shared<TableResolver>(std::map<std::string, http::Addresses>{
      {"site.test", {"127.0.0.1"}}, {"other.test", {"127.0.0.1"}}, {"named.test", {"localhost"}}});
  const std::string port = std::to_string(site.port());
  // site.test exists nowhere but in the table: the page can only come from the pinned address.
  auto page = web::fetchPage("http://site.test:" + port + "/page.html", shortDeadline(resolver), CancelToken());
  REQUIRE(page);
  CHECK(page->body == kWebTestPage);
  // A name the settings do not allow is refused for the loopback address it resolves to.
  auto refused = web::fetchPage("http://other.test:" + port + "/page.html", shortDeadline(resolver), CancelToken());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::forbidden);
  CHECK_THAT(refused.error().message, Catch::Contains("other.test (127.0.0.1)"));
  // An answer that is a name, not an address, would be looked up again past the checks.
  auto named = web::fetchPage("http://named.test:" + port + "/page.html", shortDeadline(resolver), CancelToken());
  REQUIRE_FALSE(named);
  CHECK(named.error().code == Errc::io);
  CHECK_THAT(named.error().message, Catch::Contains("not an IP address"));
  CHECK(site.paths() == std::vector<std::string>{"/page.html"});
}
