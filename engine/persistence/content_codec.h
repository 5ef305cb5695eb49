// The recording's compact JSON form of history contents, and back. Short keys
// keep the bytes per turn small: {"r":"u"|"m","p":[part...]}, a part holding
// any of "x" (text), "th" (thought), "sg" (thought signature), "fc"/"fr"
// (function call/response: id, name, raw args/response), "d" (inline data).
// Pure.
#pragma once

#include <vector>

#include "engine/model/content.h"
#include "protocol/base/json.h"

namespace lathe::engine::persist {

// Writes contents[from...] as an array; the first one without its first `skipParts` parts.
void writeContents(json::Writer& w, const std::vector<Content>& contents, size_t from, size_t skipParts);

// Reads one content; the reader names the bad field.
Content readContent(json::Reader& r);

}  // namespace lathe::engine::persist
