// The seam through which a tool asks the session's model one whole question
// (web_fetch over fetched pages, google_web_search), free of any provider's
// wire: tools/ cannot see engine/, so the engine implements this. Calls block;
// make them on a worker thread. Implementations are thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools {

// Where a grounded answer came from (Gemini's groundingChunks[].web).
struct GroundingSource {
  std::string title;
  std::string uri;
};

// A stretch of the answer backed by sources (Gemini's groundingSupports[]):
// it ends at endByte, a UTF-8 byte offset into the answer's text.
struct GroundingSupport {
  size_t endByte = 0;
  std::vector<int> sourceIndices;  // into the sources, 0-based
};

struct Grounding {
  std::vector<GroundingSource> sources;
  std::vector<GroundingSupport> supports;
};

struct OneShotAnswer {
  std::string text;
  Grounding grounding;
};

class OneShotModel {
 public:
  virtual ~OneShotModel() = default;
  // One reply to `prompt`, no tools, with the session's model.
  virtual Result<OneShotAnswer> answer(const std::string& prompt, const CancelToken& cancel) = 0;
  // Whether searchWeb can work (the provider offers a search tool).
  virtual bool canSearchWeb() const = 0;
  // One reply to `query` with the provider's web search tool, grounded.
  virtual Result<OneShotAnswer> searchWeb(const std::string& query, const CancelToken& cancel) = 0;
};

}  // namespace lathe::tools
