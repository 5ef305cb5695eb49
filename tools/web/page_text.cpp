// Content types decide: HTML (or an unlabelled page that looks like HTML) is
// converted, known text types pass, the rest are binary.
#include "tools/web/page_text.h"

#include <algorithm>

#include "protocol/base/utf8.h"
#include "tools/web/html_text.h"

namespace lathe::tools::web {
namespace {

constexpr const char* kCutNote = "\n\n... [Content truncated due to size limit] ...";

bool isHtml(const std::string& type, const std::string& body) {
  if (type == "text/html" || type == "application/xhtml+xml") return true;
  if (!type.empty()) return false;
  size_t start = body.find_first_not_of(" \t\r\n");
  return start != std::string::npos && body[start] == '<';
}

bool isText(const std::string& type) {
  if (type.empty() || type.starts_with("text/")) return true;
  if (type.ends_with("+json") || type.ends_with("+xml")) return true;
  static const char* const kTextTypes[] = {"application/json", "application/xml", "application/javascript",
                                           "application/x-javascript", "application/ecmascript", "application/yaml",
                                           "application/x-yaml", "application/toml", "application/x-sh",
                                           "application/sql", "application/graphql", "application/x-ndjson"};
  return std::find(std::begin(kTextTypes), std::end(kTextTypes), type) != std::end(kTextTypes);
}

size_t utf8Floor(const std::string& text, size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace

Result<std::string> pageText(const FetchedPage& page) {
  if (!isText(page.contentType)) {
    return makeError(Errc::invalid_params, page.url + " is " + page.contentType +
                                               ", not text: web_fetch reads web pages and other text only.");
  }
  if (page.body.find('\0') != std::string::npos) {
    return makeError(Errc::invalid_params, page.url + " holds binary data, not text: web_fetch reads text only.");
  }
  std::string text = isHtml(page.contentType, page.body) ? htmlToText(page.body, page.url) : utf8::sanitize(page.body);
  if (page.truncated) text += "\n\n... [The page was larger than the download limit; the rest was not read] ...";
  return text;
}

void fitToBudget(std::vector<std::string*> texts, size_t budget) {
  std::sort(texts.begin(), texts.end(), [](const std::string* a, const std::string* b) { return a->size() < b->size(); });
  size_t left = budget;
  for (size_t i = 0; i < texts.size(); ++i) {
    size_t share = left / (texts.size() - i);
    std::string& text = *texts[i];
    if (text.size() > share) {
      text.resize(utf8Floor(text, share));
      text += kCutNote;
    }
    left -= std::min(left, text.size());
  }
}

}  // namespace lathe::tools::web
