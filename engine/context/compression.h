// History compression: where to split a history (older part summarised,
// newest part kept whole) and the one-shot request that writes the summary,
// a structured state snapshot that folds in any earlier one. Pure apart from
// the model call; one thread at a time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/model/model_provider.h"

namespace lathe::engine {

// The index of the first content kept when about keepShare of the history (by
// size) is to stay: always a user content that answers no calls, so every call
// stays with its response. The whole length when the history ends with a plain
// model answer and no such point fits; 0 when nothing can be replaced.
size_t findCompressionSplit(const std::vector<Content>& contents, double keepShare);

// The request that asks the model for a snapshot of `older` (which must end
// with a model content); it owns nothing, so `older` and `storage` outlive it.
ModelRequest snapshotRequest(const std::string& model, const std::vector<Content>& older,
                             std::vector<Content>& storage);

// The snapshot text of a reply (thoughts left out), empty when there is none.
std::string snapshotText(const ModelReply& reply);

// What replaces the older part: the snapshot as user text and a model reply
// acknowledging it (so the kept part can start with the next user content).
std::vector<Content> snapshotContents(const std::string& snapshot);

// Whether a history's first content is a snapshot written by Lathe.
bool isSnapshot(const Content& content);

}  // namespace lathe::engine
