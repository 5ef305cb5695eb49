// Which network addresses web_fetch may connect to. Private, loopback,
// link-local, unique-local, CGNAT, metadata and other special-purpose
// addresses are refused unless the person's settings name the host. A host is
// resolved once (through the resolver seam) and checked; the fetch then
// connects to the address checked here, so a second DNS answer cannot swap in
// another (rebinding). Blocking (DNS, until answered or cancelled); any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/http/resolver.h"

namespace lathe::tools::web {

// The special range an IP literal (v4 or v6, no brackets) falls in, e.g.
// "loopback", or "" when it is a public unicast address. Not an IP: "".
std::string specialRangeOf(std::string_view ip);

// The settings key that allows named private hosts, for messages.
inline constexpr const char* kAllowPrivateHostsSetting = "tools.webFetch.allowPrivateHosts";

// Whether `host` (as in a URL, lower-case, IPv6 without brackets) is one the
// settings allow to be private.
bool hostAllowedPrivate(std::string_view host, const std::vector<std::string>& allowed);

// The addresses to connect to for host, in the resolver's order: resolved
// once, every one checked. Fails with Errc::forbidden (saying why and naming
// the setting) when one is special and the host is not allowed, Errc::io when
// the name does not resolve, Errc::cancelled when cancel fires first.
Result<http::Addresses> resolveCheckedAddresses(http::Resolver& resolver, const std::string& host,
                                                const std::vector<std::string>& allowed, const CancelToken& cancel);

// A host reached through the person's proxy, which resolves it itself: an IP
// literal is checked as above; a name that reads as internal (one label, or
// under .internal, .local, .localhost,
// .home.arpa, .lan, .intranet) is refused; any other name
// is looked up here as well and refused when an address it has here is
// special, while a name with no address here goes on (what the proxy reaches
// is the person's choice). Names the settings allow pass.
Status checkProxiedHost(http::Resolver& resolver, const std::string& host, const std::vector<std::string>& allowed,
                        const CancelToken& cancel);

}  // namespace lathe::tools::web
