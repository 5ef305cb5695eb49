// web_fetch without a model: URLs in prompts, the address policy, fetching
// from a local web site (redirects, refusals, timeout, size cap, content
// types), HTML conversion, and the tool returning the pages' text.
#include <catch2/catch.hpp>

#include "tests/support/web_test_server.h"
#include "tests/tools/core/tool_fixture.h"
#include "tools/web/web_tools.h"
#include "tools/web/address_policy.h"
#include "tools/web/html_text.h"
#include "tools/web/page_fetch.h"
#include "tools/web/page_text.h"
#include "tools/web/search_result.h"
#include "tools/web/web_url.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::tools;
using namespace std::chrono_literals;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

WebFetchOptions allowLocal() {
  WebFetchOptions options;
  options.allowPrivateHosts = {"127.0.0.1", "localhost"};
  options.timeout = 3000ms;
  return options;
}

struct Site {
  WebTestServer server;
  Site() { REQUIRE(server.start()); }
};

}  // namespace

TEST_CASE("web: special address ranges are named, public ones are not", "[web]") {
  CHECK(web::specialRangeOf("127.0.0.1") == "loopback");
  CHECK(web::specialRangeOf("10.1.2.3") == "private");
  CHECK(web::specialRangeOf("172.31.255.255") == "private");
  CHECK(web::specialRangeOf("192.168.1.1") == "private");
  CHECK(web::specialRangeOf("100.64.0.1") == "carrier-grade NAT (shared)");
  CHECK(web::specialRangeOf("169.254.169.254") == "cloud metadata");
  CHECK(web::specialRangeOf("169.254.1.1") == "link-local");
  CHECK(web::specialRangeOf("0.0.0.0") == "\"this network\"");
  CHECK(web::specialRangeOf("::1") == "loopback");
  CHECK(web::specialRangeOf("::") == "unspecified");
  CHECK(web::specialRangeOf("fd00:ec2::254") == "unique-local (private)");
  CHECK(web::specialRangeOf("fe80::1") == "link-local");
  CHECK(web::specialRangeOf("::ffff:127.0.0.1") == "IPv4-embedded loopback");
  CHECK(web::specialRangeOf("::ffff:10.0.0.1") == "IPv4-embedded private");
  CHECK(web::specialRangeOf("64:ff9b::a9fe:a9fe") == "IPv4-embedded cloud metadata");
  CHECK(web::specialRangeOf("8.8.8.8").empty());
  CHECK(web::specialRangeOf("172.32.0.1").empty());
  CHECK(web::specialRangeOf("2606:4700::1111").empty());
  CHECK(web::specialRangeOf("::ffff:8.8.8.8").empty());
}

TEST_CASE("web: addresses are checked after resolution, unless the host is allowed", "[web]") {
  auto& system = *http::systemResolver();
  auto refused = web::resolveCheckedAddresses(system, "localhost", {}, CancelToken());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Errc::forbidden);
  CHECK(has(refused.error().message, "loopback"));
  CHECK(has(refused.error().message, "tools.webFetch.allowPrivateHosts"));
  auto literal = web::resolveCheckedAddresses(system, "127.0.0.1", {}, CancelToken());
  REQUIRE_FALSE(literal);
  CHECK(literal.error().code == Errc::forbidden);
  auto allowed = web::resolveCheckedAddresses(system, "localhost", {"LOCALHOST"}, CancelToken());
  REQUIRE(allowed);
  REQUIRE_FALSE(allowed->empty());
  for (const auto& address : *allowed) CHECK(web::specialRangeOf(address) == "loopback");
  CHECK_FALSE(web::resolveCheckedAddresses(system, "10.0.0.1", {"127.0.0.1"}, CancelToken()));
}

TEST_CASE("web: URLs are found in the prompt, checked, normalised and de-duplicated", "[web]") {
  auto urls = web::urlsInPrompt("Compare https://Example.COM:443/a?x=1#top and (http://example.com:8080/b), "
                                "then https://example.com/a?x=1.");
  REQUIRE(urls);
  CHECK(*urls == std::vector<std::string>{"https://example.com/a?x=1", "http://example.com:8080/b"});
  auto ftp = web::urlsInPrompt("get ftp://x.y/z please");
  REQUIRE_FALSE(ftp);
  CHECK(has(ftp.error().message, "Unsupported protocol in URL: \"ftp://x.y/z\". Only http and https are supported."));
  auto none = web::urlsInPrompt("summarise the page");
  REQUIRE_FALSE(none);
  CHECK(has(none.error().message, "must contain at least one valid URL"));
  std::string many;
  for (int i = 0; i < 21; ++i) many += " https://e.test/" + std::to_string(i);
  CHECK_FALSE(web::urlsInPrompt(many));
  CHECK_FALSE(web::urlsInPrompt("https://user:pw@e.test/"));
  CHECK(web::rawGitHubUrl("https://github.com/owner/repo/blob/main/src/a.cpp") ==
        "https://raw.githubusercontent.com/owner/repo/main/src/a.cpp");
  CHECK(web::rawGitHubUrl("https://github.com/owner/repo/tree/main/src") == "https://github.com/owner/repo/tree/main/src");
  CHECK(web::rawGitHubUrl("https://example.com/owner/repo/blob/main/a") == "https://example.com/owner/repo/blob/main/a");
}

TEST_CASE("web: HTML becomes readable text: scripts and styles dropped, links kept, tables laid out", "[web]") {
  std::string text = web::htmlToText(kWebTestPage, "http://127.0.0.1:9/dir/page.html");
  INFO(text);
  CHECK(text.starts_with("# Lathe Test Page\n"));
  CHECK_FALSE(has(text, "secret"));
  CHECK_FALSE(has(text, "hidden script text"));
  CHECK_FALSE(has(text, "color: red"));
  CHECK_FALSE(has(text, "enable javascript"));
  CHECK(has(text, "# Release notes"));
  CHECK(has(text, "Version 2.0 brings faster builds. See [the changes](http://127.0.0.1:9/dir/changes.html)."));
  CHECK(has(text, "[Intro](http://127.0.0.1:9/docs/intro.html)"));
  CHECK(has(text, "[Absolute](https://example.org/abs)"));
  CHECK(has(text, "- First item\n- Second item"));
  CHECK(has(text, "| Name | Speed |\n| --- | --- |\n| lathe | fast |\n| other | slow |"));
  CHECK(has(text, "```\nline one\n  indented line\n```"));
}

TEST_CASE("web: broken and hostile markup still converts", "[web]") {
  CHECK(web::htmlToText("<p>unclosed <b>bold <a href='x'>link", "http://h.test/") == "unclosed bold [link](http://h.test/x)");
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "<div>";
  deep += "deep text";
  CHECK_NOTHROW(web::htmlToText(deep, "http://h.test/"));
  CHECK(web::htmlToText("<a href=\"javascript:alert(1)\">click</a>", "http://h.test/") == "click");
  // Nesting that would keep the parser busy for minutes is cut, whichever way it is built.
  for (std::string unit : {"<div>", "<div/>", "<b>", "<div><table></div>", "<span></x>"}) {
    std::string nested = "<p>start</p>";
    for (int i = 0; i < 200000; ++i) nested += unit;
    std::string text = web::htmlToText(nested, "http://h.test/");
    CHECK(text.starts_with("start"));
    CHECK(has(text, "nests too deeply"));
  }
  // Misnested formatting elements left open would be cloned into every later block.
  std::string misnested = "<p>start</p>";
  for (int i = 0; i < 2000; ++i) misnested += "<div><b id=" + std::to_string(i) + ">x</div>";
  CHECK(has(web::htmlToText(misnested, "http://h.test/"), "nests too deeply"));
  // Sloppy but shallow markup is not cut.
  std::string sloppy;
  for (int i = 0; i < 2000; ++i) sloppy += "<p>para <li>item <tr><td>cell <dt>term <dd>def <option>o ";
  CHECK_FALSE(has(web::htmlToText(sloppy, "http://h.test/"), "nests too deeply"));
  CHECK(web::htmlToText("<table><tr><td>a|b</td><td>c</td></tr></table>", "http://h.test/") ==
        "|  |  |\n| --- | --- |\n| a\\|b | c |");
}

TEST_CASE("web: a page is fetched from the local site when the host is allowed", "[web]") {
  Site site;
  auto page = web::fetchPage(site.server.url("/page.html"), allowLocal(), CancelToken());
  REQUIRE(page);
  CHECK(page->contentType == "text/html");
  CHECK(page->body == kWebTestPage);
  CHECK_FALSE(page->truncated);
}

TEST_CASE("web: a redirect chain is followed, each hop checked", "[web]") {
  Site site;
  auto page = web::fetchPage(site.server.url("/r1"), allowLocal(), CancelToken());
  REQUIRE(page);
  CHECK(page->redirects == 3);
  CHECK(page->url == site.server.url("/page.html"));
  CHECK(page->body == kWebTestPage);
  auto loop = web::fetchPage(site.server.url("/loop"), allowLocal(), CancelToken());
  REQUIRE_FALSE(loop);
  CHECK(has(loop.error().message, "redirected more than 5 times"));
}

TEST_CASE("web: a redirect to a private or metadata address is refused before connecting", "[web]") {
  Site site;
  auto toPrivate = web::fetchPage(site.server.url("/to-private"), allowLocal(), CancelToken());
  REQUIRE_FALSE(toPrivate);
  CHECK(toPrivate.error().code == Errc::forbidden);
  CHECK(has(toPrivate.error().message, "http://10.255.255.1/secret"));
  CHECK(has(toPrivate.error().message, "private"));
  CHECK(has(toPrivate.error().message, "tools.webFetch.allowPrivateHosts"));
  auto toMetadata = web::fetchPage(site.server.url("/to-metadata"), allowLocal(), CancelToken());
  REQUIRE_FALSE(toMetadata);
  CHECK(toMetadata.error().code == Errc::forbidden);
  CHECK(has(toMetadata.error().message, "cloud metadata"));
}

TEST_CASE("web: a page that answers too late ends at the deadline", "[web]") {
  Site site;
  auto options = allowLocal();
  options.timeout = 300ms;
  auto page = web::fetchPage(site.server.url("/slow"), options, CancelToken());
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::timeout);
  CHECK(has(page.error().message, "did not finish within 0.3 s"));
  CHECK(has(page.error().message, "had not sent its complete headers"));
}

TEST_CASE("web: cancelling stops a fetch that waits", "[web]") {
  Site site;
  auto cancel = CancelToken::create();
  std::thread canceller([&] {
    site.server.waitForSlowRequest(10s);  // the fetch is waiting on the page
    cancel.cancel();
  });
  auto page = web::fetchPage(site.server.url("/slow"), allowLocal(), cancel);
  canceller.join();
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::cancelled);
}

TEST_CASE("web: a 10 MB page is capped and the rest is not downloaded", "[web]") {
  Site site;
  auto options = allowLocal();
  options.maxBodyBytes = 256 * 1024;
  auto page = web::fetchPage(site.server.url("/big"), options, CancelToken());
  REQUIRE(page);
  CHECK(page->truncated);
  CHECK(page->body.size() == 256 * 1024);
  // The connection was dropped: the server could not hand most of the page to the socket.
  site.server.stop();
  CHECK(site.server.bigBytesSent() < WebTestServer::kBigPageBytes / 2);
  auto text = web::pageText(*page);
  REQUIRE(text);
  CHECK(has(*text, "larger than the download limit"));
}

TEST_CASE("web: other text types pass through, binary types and error statuses are refused", "[web]") {
  Site site;
  auto notes = web::fetchPage(site.server.url("/notes.txt"), allowLocal(), CancelToken());
  REQUIRE(notes);
  CHECK(web::pageText(*notes).value() == "Plain notes: <b>not html</b>\nsecond line\n");
  auto data = web::fetchPage(site.server.url("/data.json"), allowLocal(), CancelToken());
  REQUIRE(data);
  CHECK(web::pageText(*data).value() == R"({"answer": 42})");
  auto image = web::fetchPage(site.server.url("/image.png"), allowLocal(), CancelToken());
  REQUIRE(image);
  auto imageText = web::pageText(*image);
  REQUIRE_FALSE(imageText);
  CHECK(has(imageText.error().message, "image/png, not text"));
  auto missing = web::fetchPage(site.server.url("/missing"), allowLocal(), CancelToken());
  REQUIRE_FALSE(missing);
  CHECK(has(missing.error().message, "HTTP status 404"));
}

TEST_CASE("web: without the allow setting the same requests are refused and nothing reaches the site", "[web]") {
  Site site;
  WebFetchOptions options;  // nothing allowed
  for (const std::string& url : {site.server.url("/page.html"), site.server.url("/r1"),
                                 "http://localhost:" + std::to_string(site.server.port()) + "/notes.txt"}) {
    auto page = web::fetchPage(url, options, CancelToken());
    REQUIRE_FALSE(page);
    CHECK(page.error().code == Errc::forbidden);
    CHECK(has(page.error().message, "tools.webFetch.allowPrivateHosts"));
  }
  CHECK(site.server.paths().empty());
}

TEST_CASE("web: pages share the text budget fairly, smallest first", "[web]") {
  std::string small(100, 'a'), large(5000, 'b'), medium(700, 'c');
  web::fitToBudget({&small, &large, &medium}, 1600);
  CHECK(small.size() == 100);
  CHECK(medium.size() == 700);  // within its share (750)
  CHECK(large.starts_with(std::string(800, 'b') + "\n\n... [Content truncated"));  // the rest: 800
  CHECK(large.size() < 900);
}

TEST_CASE("web_fetch: asks with the URLs, and without a model returns the pages' text citing them", "[web]") {
  Site site;
  ToolFixture fx;
  fx.context.web = allowLocal();
  auto tool = makeWebFetchTool(fx.context);
  CHECK(tool->kind() == Kind::fetch);
  std::string prompt = "Summarise " + site.server.url("/r1") + " and " + site.server.url("/notes.txt") + " and " +
                       site.server.url("/image.png");
  auto built = tool->build(json::parse(json::build([&](json::Writer& w) {
                                         w.StartObject();
                                         json::put(w, "prompt", prompt);
                                         w.EndObject();
                                       })).value());
  REQUIRE(built.invocation);
  auto confirm = built.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(confirm);
  REQUIRE(*confirm);
  auto& info = std::get<InfoConfirmation>(**confirm);
  CHECK(info.urls == std::vector<std::string>{site.server.url("/r1"), site.server.url("/notes.txt"), site.server.url("/image.png")});
  CHECK(site.server.paths().empty());  // nothing fetched before execute
  auto result = built.invocation->execute(CancelToken(), [](const std::string&) {});
  CHECK_FALSE(result.error);
  std::string text = llmText(result);
  INFO(text);
  CHECK(has(text, "no model is available"));
  CHECK(has(text, "| lathe | fast |"));
  CHECK(has(text, "Plain notes"));
  CHECK(has(text, "Sources:\n[1] " + site.server.url("/r1") + "\n[2] " + site.server.url("/notes.txt")));
  CHECK(has(text, "Not fetched:\n- " + site.server.url("/image.png") + ": "));
}

TEST_CASE("web_fetch: every page refused is a failure that says why", "[web]") {
  Site site;
  ToolFixture fx;  // no allowed hosts
  auto tool = makeWebFetchTool(fx.context);
  auto result = fx.run(*tool, R"({"prompt": "read )" + site.server.url("/page.html") + R"("})");
  REQUIRE(result.error);
  CHECK(has(result.error->message, "loopback"));
  CHECK(has(result.error->message, "tools.webFetch.allowPrivateHosts"));
  CHECK(site.server.paths().empty());
  auto bad = fx.run(*tool, R"({"prompt": "read ftp://x.test/f"})");
  REQUIRE(bad.error);
  CHECK(bad.error->type == ErrorType::invalid_params);
}

TEST_CASE("google_web_search: citation markers go in at UTF-8 byte offsets, sources follow", "[web]") {
  OneShotAnswer answer;
  answer.text = "Café is open. Tea too.";  // "é" is two bytes: the first sentence ends at byte 14
  answer.grounding.sources = {{"wikipedia.org", "https://x.test/1"}, {"", ""}};
  answer.grounding.supports = {{14, {0}}, {23, {0, 1}}};
  CHECK(web::formatSearchResult("cafe", answer) ==
        "Web search results for \"cafe\":\n\nCafé is open.[1] Tea too.[1][2]\n\nSources:\n"
        "[1] wikipedia.org (https://x.test/1)\n[2] Untitled (No URI)");
  // An offset inside a character moves past it rather than split it.
  CHECK(web::insertCitationMarkers("é", {{1, {0}}}) == "é[1]");
}

TEST_CASE("google_web_search: not declared without a model that can search", "[web]") {
  ToolFixture fx;
  CHECK(makeWebSearchTool(fx.context) == nullptr);
}

TEST_CASE("web: an allowed name is tried at each of its addresses", "[web]") {
  Site site;  // listens on 127.0.0.1 only, while localhost may resolve to ::1 first
  auto options = allowLocal();
  auto page = web::fetchPage("http://localhost:" + std::to_string(site.server.port()) + "/notes.txt", options, CancelToken());
  REQUIRE(page);
  CHECK(page->url == "http://localhost:" + std::to_string(site.server.port()) + "/notes.txt");
}

TEST_CASE("web: https speaks TLS (a plain server fails the handshake, never read as plain text)", "[web]") {
  Site site;
  auto page = web::fetchPage("https://127.0.0.1:" + std::to_string(site.server.port()) + "/notes.txt", allowLocal(),
                             CancelToken());
  REQUIRE_FALSE(page);
  CHECK(page.error().code == Errc::io);
  CHECK(has(page.error().message, "SSL"));
}

TEST_CASE("web: URL bytes beyond ASCII are sent percent-encoded", "[web]") {
  auto url = web::parseWebUrl("https://e.test/caf\xC3\xA9?q=a+b");
  REQUIRE(url);
  CHECK(url->target == "/caf%C3%A9?q=a+b");
  CHECK(url->text() == "https://e.test/caf%C3%A9?q=a+b");
}
