// Proxy selection from the environment, and applying it to a client.
#include "protocol/http/proxy.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "protocol/base/log.h"
#include "protocol/http/tls_proxy_relay.h"

namespace lathe::http {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool isLoopback(std::string_view host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.starts_with("127.") || host.ends_with(".localhost");
}

std::optional<std::string> firstOf(const ProxyEnv& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = env(name); value && !trim(*value).empty()) return std::string(trim(*value));
  }
  return std::nullopt;
}

std::mutex& settingsMutex() {
  static std::mutex mutex;
  return mutex;
}
std::string& settingsProxy() {
  static std::string url;
  return url;
}

std::optional<std::string> processEnv(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return std::nullopt;
  return std::string(value);
}

}  // namespace

std::optional<ProxyServer> parseProxyUrl(std::string_view url) {
  url = trim(url);
  ProxyServer out;
  if (size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    const std::string name = lower(url.substr(0, scheme));
    if (name != "http" && name != "https") return std::nullopt;
    out.tls = name == "https";
    url.remove_prefix(scheme + 3);
  }
  url = url.substr(0, url.find('/'));
  if (size_t at = url.rfind('@'); at != std::string_view::npos) {
    std::string_view credentials = url.substr(0, at);
    url.remove_prefix(at + 1);
    size_t colon = credentials.find(':');
    out.user = httplib::detail::decode_url(std::string(credentials.substr(0, colon)), false);
    if (colon != std::string_view::npos) out.password = httplib::detail::decode_url(std::string(credentials.substr(colon + 1)), false);
  }
  std::string_view port;
  if (url.starts_with('[')) {
    size_t close = url.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    out.host = std::string(url.substr(1, close - 1));
    if (close + 1 < url.size() && url[close + 1] == ':') port = url.substr(close + 2);
  } else {
    size_t colon = url.rfind(':');
    out.host = std::string(url.substr(0, colon));
    if (colon != std::string_view::npos) port = url.substr(colon + 1);
  }
  out.port = out.tls ? 443 : 80;
  if (!port.empty()) {
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    out.port = std::stoi(std::string(port));
  }
  if (out.host.empty() || out.port <= 0 || out.port > 65535) return std::nullopt;
  return out;
}

bool noProxyMatches(std::string_view noProxy, std::string_view host, int port) {
  const std::string name = lower(host);
  while (!noProxy.empty()) {
    size_t comma = noProxy.find_first_of(", ");
    std::string entry = lower(trim(noProxy.substr(0, comma)));
    noProxy = comma == std::string_view::npos ? std::string_view{} : noProxy.substr(comma + 1);
    if (entry.empty()) continue;
    if (entry == "*") return true;
    if (size_t colon = entry.rfind(':'); colon != std::string::npos && entry.find(':') == colon) {
      if (entry.substr(colon + 1) != std::to_string(port)) continue;
      entry.resize(colon);
    }
    if (entry.starts_with("*.")) entry.erase(0, 1);
    if (entry.starts_with('.')) {
      if (name.ends_with(entry) || name == entry.substr(1)) return true;
    } else if (name == entry || name.ends_with("." + entry)) {
      return true;
    }
  }
  return false;
}

std::optional<ProxyServer> proxyFor(std::string_view scheme, std::string_view host, int port, const ProxyEnv& env) {
  if (isLoopback(host)) return std::nullopt;
  if (auto noProxy = firstOf(env, {"NO_PROXY", "no_proxy"}); noProxy && noProxyMatches(*noProxy, host, port)) {
    return std::nullopt;
  }
  auto url = scheme == "https" ? firstOf(env, {"HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"})
                               : firstOf(env, {"HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"});
  if (!url) {
    std::lock_guard lock(settingsMutex());
    if (settingsProxy().empty()) return std::nullopt;
    url = settingsProxy();
  }
  auto proxy = parseProxyUrl(*url);
  if (!proxy) log(LogLevel::warn, "ignoring the proxy \"" + *url + "\": use http://host:port or https://host:port");
  return proxy;
}

std::optional<ProxyServer> proxyFor(std::string_view scheme, std::string_view host, int port) {
  return proxyFor(scheme, host, port, processEnv);
}

void setSettingsProxy(std::string url) {
  std::lock_guard lock(settingsMutex());
  settingsProxy() = std::move(url);
}

void useProxy(httplib::Client& client, std::string_view origin) {
  size_t sep = origin.find("://");
  if (sep == std::string_view::npos) return;
  std::string scheme = lower(origin.substr(0, sep));
  std::string_view rest = origin.substr(sep + 3);
  int port = scheme == "https" ? 443 : 80;
  std::string_view host = rest;
  if (rest.starts_with('[')) {
    size_t close = rest.find(']');
    host = rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
    if (close != std::string_view::npos && close + 1 < rest.size() && rest[close + 1] == ':') {
      port = std::atoi(std::string(rest.substr(close + 2)).c_str());
    }
  } else if (size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    port = std::atoi(std::string(rest.substr(colon + 1)).c_str());
  }
  auto proxy = proxyFor(scheme, host, port, processEnv);
  if (!proxy) return;
  if (proxy->tls) {
    // httplib reaches the relay as its proxy; a relay that cannot start leaves
    // a name nothing listens on, so requests fail rather than go around the proxy.
    std::string relay = tlsProxyRelay(proxy->host, proxy->port);
    client.set_address_family(AF_UNIX);
    client.set_proxy(relay.empty() ? std::string(1, '\0') + "lathe-proxy-unavailable" : relay, 0);
  } else {
    client.set_proxy(proxy->host, proxy->port);
  }
  if (!proxy->user.empty()) client.set_proxy_basic_auth(proxy->user, proxy->password);
}

}  // namespace lathe::http
