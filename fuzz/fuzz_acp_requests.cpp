// Fuzz target: the ACP request decoders (initialize, authenticate, session/new
// with mcpServers, session/prompt, session/set_mode, session/set_config_option,
// session references) and the decoders of the editor's answers (permission
// outcome, fs/read_text_file). The first byte picks the decoder, the rest is
// the params JSON. A decoder must return a value or an error, never crash.
// Single-threaded.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/acp/client_calls.h"
#include "protocol/acp/config_options.h"
#include "protocol/acp/content.h"
#include "protocol/acp/initialize.h"
#include "protocol/acp/session.h"
#include "protocol/base/json.h"

namespace {

template <class T>
void decodeWith(const lathe::json::Value& params) {
  auto decoded = T::fromJson(params);
  if (!decoded) (void)decoded.error().message.size();
}

void decode(uint8_t which, const lathe::json::Value& params) {
  using namespace lathe::acp;
  switch (which % 9) {
    case 0: return decodeWith<InitializeRequest>(params);
    case 1: return decodeWith<AuthenticateRequest>(params);
    case 2: return decodeWith<NewSessionRequest>(params);
    case 3: return decodeWith<PromptRequest>(params);
    case 4: return decodeWith<SetModeRequest>(params);
    case 5: return decodeWith<SetConfigOptionRequest>(params);
    case 6: return decodeWith<SessionRef>(params);
    case 7: return decodeWith<RequestPermissionResponse>(params);
    default: (void)readTextFileResult(params); return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto doc = lathe::json::parse(text);
  if (doc) decode(data[0], *doc);
  return 0;
}
