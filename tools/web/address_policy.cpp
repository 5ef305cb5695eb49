// Address classification by range tables (IANA special-purpose registries).
#include "tools/web/address_policy.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>

namespace lathe::tools::web {
namespace {

struct V4Range {
  uint32_t base;
  int bits;
  const char* name;
};

constexpr uint32_t v4(int a, int b, int c, int d) {
  return (uint32_t(a) << 24) | (uint32_t(b) << 16) | (uint32_t(c) << 8) | uint32_t(d);
}

constexpr std::array<V4Range, 16> kV4Special{{
    {v4(0, 0, 0, 0), 8, "\"this network\""},
    {v4(10, 0, 0, 0), 8, "private"},
    {v4(100, 64, 0, 0), 10, "carrier-grade NAT (shared)"},
    {v4(127, 0, 0, 0), 8, "loopback"},
    {v4(169, 254, 169, 254), 32, "cloud metadata"},
    {v4(169, 254, 0, 0), 16, "link-local"},
    {v4(172, 16, 0, 0), 12, "private"},
    {v4(192, 0, 0, 0), 24, "IETF protocol assignment"},
    {v4(192, 0, 2, 0), 24, "documentation"},
    {v4(192, 168, 0, 0), 16, "private"},
    {v4(198, 18, 0, 0), 15, "benchmarking"},
    {v4(198, 51, 100, 0), 24, "documentation"},
    {v4(203, 0, 113, 0), 24, "documentation"},
    {v4(224, 0, 0, 0), 4, "multicast"},
    {v4(240, 0, 0, 0), 4, "reserved"},
    {v4(192, 88, 99, 0), 24, "6to4 relay anycast"},
}};

const char* v4Range(uint32_t ip) {
  for (const auto& range : kV4Special) {
    uint32_t mask = range.bits == 0 ? 0 : ~uint32_t(0) << (32 - range.bits);
    if ((ip & mask) == range.base) return range.name;
  }
  return "";
}

uint32_t v4At(const unsigned char* bytes) {
  return (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) | (uint32_t(bytes[2]) << 8) | uint32_t(bytes[3]);
}

bool prefixIs(const unsigned char* ip, std::initializer_list<unsigned char> bytes) {
  size_t i = 0;
  for (unsigned char b : bytes) {
    if (ip[i++] != b) return false;
  }
  return true;
}

std::string v6Range(const unsigned char* ip) {
  static constexpr unsigned char kZero[16] = {};
  if (std::memcmp(ip, kZero, 15) == 0 && (ip[15] == 0 || ip[15] == 1)) return ip[15] ? "loopback" : "unspecified";
  // IPv4 inside IPv6: judged by the IPv4 address it carries.
  bool mapped = std::memcmp(ip, kZero, 10) == 0 && ip[10] == 0xff && ip[11] == 0xff;
  bool compatible = std::memcmp(ip, kZero, 12) == 0;
  bool nat64 = prefixIs(ip, {0x00, 0x64, 0xff, 0x9b}) && std::memcmp(ip + 4, kZero, 8) == 0;
  if (mapped || compatible || nat64) {
    std::string inner = v4Range(v4At(ip + 12));
    return inner.empty() ? "" : "IPv4-embedded " + inner;
  }
  if (prefixIs(ip, {0x20, 0x02})) {  // 6to4: the IPv4 address follows the prefix
    std::string inner = v4Range(v4At(ip + 2));
    return inner.empty() ? "" : "6to4 " + inner;
  }
  if ((ip[0] & 0xfe) == 0xfc) return "unique-local (private)";
  if (ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80) return "link-local";
  if (ip[0] == 0xfe && (ip[1] & 0xc0) == 0xc0) return "site-local";
  if (ip[0] == 0xff) return "multicast";
  if (prefixIs(ip, {0x20, 0x01, 0x0d, 0xb8})) return "documentation";
  if (prefixIs(ip, {0x01, 0x00, 0x00, 0x00}) && std::memcmp(ip + 4, kZero, 4) == 0) return "discard";
  if (prefixIs(ip, {0x20, 0x01, 0x00, 0x00})) return "Teredo";
  if (prefixIs(ip, {0x20, 0x01}) && ip[2] == 0 && ip[3] < 0x02) return "IETF protocol assignment";
  return "";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Names for hosts of a private network, whatever they resolve to.
bool internalName(const std::string& host) {
  if (host.find('.') == std::string::npos) return true;
  for (const char* suffix : {".internal", ".local", ".localhost", ".home.arpa", ".lan", ".intranet"}) {
    if (host.ends_with(suffix)) return true;
  }
  return false;
}

std::string refusal(const std::string& host, const std::string& address, const std::string& range) {
  std::string what = address == host ? address : host + " (" + address + ")";
  return "Refused to connect to " + what + ": it is a " + range +
         " address, and web_fetch does not reach private, loopback, link-local or metadata addresses. To allow this "
         "host, add \"" + host + "\" to " + kAllowPrivateHostsSetting + " in your user settings (~/.gemini/settings.json).";
}

}  // namespace

std::string specialRangeOf(std::string_view ip) {
  std::string text(ip);
  unsigned char bytes[16];
  if (inet_pton(AF_INET, text.c_str(), bytes) == 1) return v4Range(v4At(bytes));
  if (inet_pton(AF_INET6, text.c_str(), bytes) == 1) return v6Range(bytes);
  return "";
}

bool hostAllowedPrivate(std::string_view host, const std::vector<std::string>& allowed) {
  std::string wanted = lower(host);
  for (const auto& entry : allowed) {
    std::string name = lower(entry);
    if (name.size() > 2 && name.front() == '[' && name.back() == ']') name = name.substr(1, name.size() - 2);
    if (name == wanted) return true;
  }
  return false;
}

Result<http::Addresses> resolveCheckedAddresses(http::Resolver& resolver, const std::string& host,
                                                const std::vector<std::string>& allowed, const CancelToken& cancel) {
  auto addresses = http::resolveHost(resolver, host, cancel);
  if (!addresses) return addresses;
  if (addresses->empty()) return makeError(Errc::io, "Could not resolve " + host + ": no IP address");
  for (const auto& address : *addresses) {
    // A name here would be looked up again when connecting, past every check.
    if (!http::isIpLiteral(address)) {
      return makeError(Errc::io, "Could not resolve " + host + ": the resolver answered \"" + address +
                                     "\", which is not an IP address");
    }
  }
  if (hostAllowedPrivate(host, allowed)) return addresses;
  // Every answer is checked: one public address among private ones is no reason to trust the name.
  for (const auto& address : *addresses) {
    if (auto range = specialRangeOf(address); !range.empty()) {
      return makeError(Errc::forbidden, refusal(host, address, range));
    }
  }
  return addresses;
}

Status checkProxiedHost(http::Resolver& resolver, const std::string& host, const std::vector<std::string>& allowed,
                        const CancelToken& cancel) {
  if (hostAllowedPrivate(host, allowed)) return {};
  if (http::isIpLiteral(host)) {
    if (auto range = specialRangeOf(host); !range.empty()) return makeError(Errc::forbidden, refusal(host, host, range));
    return {};
  }
  const std::string name = lower(host);
  if (internalName(name)) {
    return makeError(Errc::forbidden, "Refused to fetch from " + host +
                                          " through the proxy: the name is one of a private network, and web_fetch "
                                          "does not reach private hosts. To allow this host, add \"" + host + "\" to " +
                                          kAllowPrivateHostsSetting + " in your user settings (~/.gemini/settings.json).");
  }
  auto addresses = resolveCheckedAddresses(resolver, host, allowed, cancel);
  if (!addresses && (addresses.error().code == Errc::forbidden || cancel.cancelled())) return addresses.error();
  return {};  // public here, or unknown here: the proxy resolves it
}

}  // namespace lathe::tools::web
