#include "protocol/formats/located_document.h"

namespace lathe::formats {
namespace {

// "a.b[2]" -> "a.b", "a.b" -> "a", "a" -> "".
std::string_view parentOf(std::string_view path) {
  size_t cut = path.find_last_of(".[");
  return cut == std::string_view::npos ? std::string_view{} : path.substr(0, cut);
}

}  // namespace

int LocatedDocument::lineOf(std::string_view path) const {
  for (std::string_view at = path;; at = parentOf(at)) {
    if (auto found = lines.find(std::string(at)); found != lines.end()) return found->second;
    if (at.empty()) return 0;
  }
}

std::string LocatedDocument::where(std::string_view path) const {
  int line = lineOf(path);
  return line > 0 ? source + ":" + std::to_string(line) : source;
}

Error LocatedDocument::locate(const Error& readerError) const {
  std::string_view message = readerError.message;
  size_t colon = message.find(": ");
  std::string_view path = colon == std::string_view::npos ? std::string_view{} : message.substr(0, colon);
  return Error{readerError.code, where(path) + ": " + readerError.message};
}

}  // namespace lathe::formats
