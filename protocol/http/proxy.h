// Which proxy an outgoing HTTP request goes through, as curl and Gemini CLI
// read it: HTTPS_PROXY / https_proxy for https, HTTP_PROXY / http_proxy for
// http, ALL_PROXY / all_proxy for either, unless NO_PROXY / no_proxy names the
// host (exact, or as a domain suffix, optionally with a port; "*" for all).
// Loopback hosts never go through a proxy. Gemini CLI's `proxy` setting
// applies when the environment names none. A proxy is http:// or https://
// (TLS to the proxy). The proxy is the person's choice: callers still check
// the target (web_fetch's address rules). Any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace httplib {
class Client;
}

namespace lathe::http {

struct ProxyServer {
  std::string host;
  int port = 0;
  std::string user;
  std::string password;
  bool tls = false;  // an https:// proxy: TLS to the proxy itself (tls_proxy_relay.h)
};

using ProxyEnv = std::function<std::optional<std::string>(const char*)>;

// "http://user:pass@host:port", "https://host:port" (TLS to the proxy;
// port 443 unless named), "host:port"; nullopt when it is not one.
std::optional<ProxyServer> parseProxyUrl(std::string_view url);
bool noProxyMatches(std::string_view noProxy, std::string_view host, int port);
// The proxy for a request to scheme://host:port; nullopt: connect directly.
std::optional<ProxyServer> proxyFor(std::string_view scheme, std::string_view host, int port, const ProxyEnv& env);
// The same from the process's environment and the settings' proxy.
std::optional<ProxyServer> proxyFor(std::string_view scheme, std::string_view host, int port);

// Gemini CLI's `proxy` setting (set once at start-up, before any request).
void setSettingsProxy(std::string url);

// Points the client for `origin` ("scheme://host[:port]") at its proxy from
// the process's environment, if any (an https:// proxy through this process's
// relay). A proxy variable that cannot be read is logged and ignored.
void useProxy(httplib::Client& client, std::string_view origin);

}  // namespace lathe::http
