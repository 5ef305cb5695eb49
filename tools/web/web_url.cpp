// URL splitting by hand: web_fetch needs only absolute http(s) URLs, and a
// small parser here is easier to audit than a general one.
#include "tools/web/web_url.h"

#include <algorithm>
#include <cctype>

namespace lathe::tools::web {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Punctuation that ends a sentence rather than a URL ("see https://x.test/a.").
std::string_view trimTrailing(std::string_view token) {
  while (!token.empty()) {
    char c = token.back();
    bool closesUnopened = (c == ')' && token.find('(') == std::string_view::npos) ||
                          (c == ']' && token.find('[') == std::string_view::npos);
    if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '"' || c == '\'' || c == '>' ||
        closesUnopened) {
      token.remove_suffix(1);
    } else {
      break;
    }
  }
  return token;
}

std::string_view trimLeading(std::string_view token) {
  while (!token.empty() && (token.front() == '(' || token.front() == '<' || token.front() == '"' ||
                            token.front() == '\'' || token.front() == '[')) {
    token.remove_prefix(1);
  }
  return token;
}

Result<int> parsePort(std::string_view text, std::string_view url) {
  if (text.empty() || text.size() > 5 || !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return makeError(Errc::invalid_params, "Invalid port in URL: \"" + std::string(url) + "\"");
  }
  int port = std::stoi(std::string(text));
  if (port < 1 || port > 65535) return makeError(Errc::invalid_params, "Invalid port in URL: \"" + std::string(url) + "\"");
  return port;
}

}  // namespace

std::string WebUrl::hostForUrl() const { return host.find(':') != std::string::npos ? "[" + host + "]" : host; }

std::string WebUrl::text() const {
  bool defaultPort = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  return scheme + "://" + hostForUrl() + (defaultPort ? "" : ":" + std::to_string(port)) + target;
}

Result<WebUrl> parseWebUrl(std::string_view url) {
  size_t sep = url.find("://");
  if (sep == std::string_view::npos) return makeError(Errc::invalid_params, "Not a URL: \"" + std::string(url) + "\"");
  WebUrl out;
  out.scheme = lower(url.substr(0, sep));
  if (out.scheme != "http" && out.scheme != "https") {
    return makeError(Errc::invalid_params,
                     "Unsupported protocol in URL: \"" + std::string(url) + "\". Only http and https are supported.");
  }
  std::string_view rest = url.substr(sep + 3);
  size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  std::string_view tail = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  if (authority.find('@') != std::string_view::npos) {
    return makeError(Errc::invalid_params, "URLs with credentials are not fetched: \"" + std::string(url) + "\"");
  }
  std::string_view portText;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return makeError(Errc::invalid_params, "Invalid host in URL: \"" + std::string(url) + "\"");
    out.host = lower(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return makeError(Errc::invalid_params, "Invalid host in URL: \"" + std::string(url) + "\"");
      portText = after.substr(1);
    }
  } else {
    size_t colon = authority.rfind(':');
    out.host = lower(authority.substr(0, colon));
    if (colon != std::string_view::npos) portText = authority.substr(colon + 1);
  }
  bool hostOk = !out.host.empty() && std::all_of(out.host.begin(), out.host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '_';
  });
  if (!hostOk) return makeError(Errc::invalid_params, "Invalid host in URL: \"" + std::string(url) + "\"");
  if (out.host.back() == '.') out.host.pop_back();  // "example.com." is example.com
  out.port = out.scheme == "https" ? 443 : 80;
  if (!portText.empty()) {
    auto port = parsePort(portText, url);
    if (!port) return port.error();
    out.port = *port;
  }
  out.target = std::string(tail.substr(0, tail.find('#')));
  if (out.target.empty() || out.target.front() == '?') out.target = "/" + out.target;
  // Bytes beyond ASCII are sent percent-encoded; controls and spaces are not URL text.
  std::string target;
  for (char c : out.target) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f) {
      return makeError(Errc::invalid_params, "Invalid character in URL: \"" + std::string(url) + "\"");
    }
    if (byte >= 0x80) {
      static const char* const kHex = "0123456789ABCDEF";
      target += '%';
      target += kHex[byte >> 4];
      target += kHex[byte & 15];
    } else {
      target += c;
    }
  }
  out.target = std::move(target);
  return out;
}

Result<std::vector<std::string>> urlsInPrompt(std::string_view prompt) {
  std::vector<std::string> urls;
  std::vector<std::string> problems;
  size_t i = 0;
  while (i < prompt.size()) {
    while (i < prompt.size() && isSpace(prompt[i])) ++i;
    size_t start = i;
    while (i < prompt.size() && !isSpace(prompt[i])) ++i;
    std::string_view token = trimTrailing(trimLeading(prompt.substr(start, i - start)));
    if (token.find("://") == std::string_view::npos) continue;
    auto url = parseWebUrl(token);
    if (!url) {
      problems.push_back(url.error().message);
      continue;
    }
    std::string text = url->text();
    if (std::find(urls.begin(), urls.end(), text) == urls.end()) urls.push_back(std::move(text));
  }
  if (!problems.empty()) {
    std::string message = "Error(s) in prompt URLs:";
    for (const auto& problem : problems) message += "\n- " + problem;
    return makeError(Errc::invalid_params, message);
  }
  if (urls.empty()) {
    return makeError(Errc::invalid_params,
                     "The 'prompt' must contain at least one valid URL (starting with http:// or https://).");
  }
  if (urls.size() > kMaxPromptUrls) {
    return makeError(Errc::invalid_params, "The 'prompt' holds " + std::to_string(urls.size()) +
                                               " URLs; web_fetch takes at most " + std::to_string(kMaxPromptUrls) + ".");
  }
  return urls;
}

std::string rawGitHubUrl(const std::string& url) {
  auto parsed = parseWebUrl(url);
  if (!parsed || (parsed->host != "github.com" && parsed->host != "www.github.com")) return url;
  // /OWNER/REPO/blob/REF/PATH...
  const std::string& path = parsed->target;
  size_t owner = path.find('/', 1);
  if (owner == std::string::npos) return url;
  size_t repo = path.find('/', owner + 1);
  if (repo == std::string::npos || path.compare(repo, 6, "/blob/") != 0) return url;
  return "https://raw.githubusercontent.com" + path.substr(0, repo) + path.substr(repo + 5);
}

}  // namespace lathe::tools::web
