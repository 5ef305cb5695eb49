// A large edit's diff as the person is shown it: only the region that
// changed, with lines of context around it, instead of two whole copies of a
// file of megabytes (each escaped for the wire, recorded, parsed by the
// editor). The region starts and ends on line boundaries, so the texts stay
// valid UTF-8 and the editor's diff of them reads like the file's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lathe::engine {

// Diffs whose old and new texts together are at most this are sent whole.
inline constexpr size_t kWholeDiffBytes = 256 * 1024;
inline constexpr int kRegionContextLines = 20;

// Cuts oldText and newText to the changed region and its context when
// together they are larger than kWholeDiffBytes (a new file, without
// oldText, is left whole). Returns the 1-based line of the file where the
// cut texts start (1 when nothing was cut).
int64_t narrowToChange(std::optional<std::string>& oldText, std::string& newText);

}  // namespace lathe::engine
