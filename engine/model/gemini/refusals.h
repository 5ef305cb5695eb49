// How a Google model API's error answer reads: the API's own words, and for a
// refused credential (401, an API_KEY_ reason) or a denial (403) which
// credential it was and how to fix it, so the person knows which of their
// keys or logins failed. 401s are auth-required. Pure; any thread.
#pragma once

#include <string>

#include "protocol/http/http_client.h"

namespace lathe::engine::gemini {

http::DescribeStatus describeRefusals(std::string api, std::string credential, std::string fix);

}  // namespace lathe::engine::gemini
