// Base64 (RFC 4648, standard alphabet, padded) for inline data parts. Pure.
#pragma once

#include <string>
#include <string_view>

namespace lathe {

std::string base64Encode(std::string_view bytes);

}  // namespace lathe
