// Markers are inserted from the last offset to the first, so earlier offsets
// stay valid; several supports ending at one offset keep their order.
#include "tools/web/search_result.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace lathe::tools::web {

std::string insertCitationMarkers(const std::string& text, const std::vector<GroundingSupport>& supports) {
  std::vector<std::pair<size_t, std::string>> inserts;
  for (const auto& support : supports) {
    std::string marker;
    for (int index : support.sourceIndices) marker += "[" + std::to_string(index + 1) + "]";
    if (marker.empty()) continue;
    size_t at = std::min(support.endByte, text.size());
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;  // not inside a character
    inserts.emplace_back(at, std::move(marker));
  }
  std::stable_sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out = text;
  // Supports ending at one offset are joined in their own order (the sort is stable).
  for (size_t i = 0; i < inserts.size();) {
    size_t j = i;
    std::string joined;
    while (j < inserts.size() && inserts[j].first == inserts[i].first) joined += inserts[j++].second;
    out.insert(inserts[i].first, joined);
    i = j;
  }
  return out;
}

std::string formatSearchResult(const std::string& query, const OneShotAnswer& answer) {
  std::string out = "Web search results for \"" + query + "\":\n\n" +
                    insertCitationMarkers(answer.text, answer.grounding.supports);
  if (!answer.grounding.sources.empty()) {
    out += "\n\nSources:";
    for (size_t i = 0; i < answer.grounding.sources.size(); ++i) {
      const auto& source = answer.grounding.sources[i];
      out += "\n[" + std::to_string(i + 1) + "] " + (source.title.empty() ? "Untitled" : source.title) + " (" +
             (source.uri.empty() ? "No URI" : source.uri) + ")";
    }
  }
  return out;
}

}  // namespace lathe::tools::web
