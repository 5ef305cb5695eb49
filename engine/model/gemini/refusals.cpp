// Error answers of the Gemini API, Vertex AI and Code Assist.
#include "engine/model/gemini/refusals.h"

#include "engine/model/gemini/gemini_wire.h"

namespace lathe::engine::gemini {

http::DescribeStatus describeRefusals(std::string api, std::string credential, std::string fix) {
  return [api = std::move(api), credential = std::move(credential), fix = std::move(fix)](int status, std::string_view body) {
    std::string message = describeHttpError(status, body);
    auto apiError = parseApiError(body);
    const bool badKey = status == 401 || (apiError && apiError->reason.starts_with("API_KEY_"));
    if (badKey) {
      message += " The " + api + " refused " + credential + ". To fix it: " + fix + ".";
    } else if (status == 403) {
      message += " The " + api + " denied " + credential + " access. To fix it: " + fix + ".";
    }
    http::StatusError out{makeError(badKey ? Errc::auth_required : Errc::http, std::move(message)), std::nullopt};
    if (apiError) out.retryAfter = apiError->retryDelay;
    return out;
  };
}

}  // namespace lathe::engine::gemini
