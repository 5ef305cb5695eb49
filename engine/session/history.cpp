// History appends and their invariant.
#include "engine/session/history.h"

#include <algorithm>

namespace lathe::engine {
namespace {

Error broken(const std::string& what) { return makeError(Errc::internal, "history invariant: " + what); }

}  // namespace

void History::addUserParts(std::vector<Part> parts) {
  if (!contents_.empty() && contents_.back().role == Role::user) {
    auto& last = contents_.back().parts;
    last.insert(last.end(), std::make_move_iterator(parts.begin()), std::make_move_iterator(parts.end()));
    return;
  }
  contents_.push_back(Content{Role::user, std::move(parts)});
}

Status History::appendUser(std::vector<Part> parts) {
  if (!pending_.empty()) return broken(std::to_string(pending_.size()) + " function call(s) are still unanswered");
  for (const Part& part : parts) {
    if (part.functionCall || part.functionResponse) return broken("a prompt cannot carry function calls or responses");
  }
  if (!parts.empty()) addUserParts(std::move(parts));
  return {};
}

Status History::appendModel(Content content) {
  if (!pending_.empty()) return broken(std::to_string(pending_.size()) + " function call(s) are still unanswered");
  if (content.role != Role::model) return broken("a model reply must have the model role");
  for (const Part& part : content.parts) {
    if (part.functionResponse) return broken("a model reply cannot carry function responses");
    if (part.functionCall) pending_.push_back(*part.functionCall);
  }
  if (!content.parts.empty()) contents_.push_back(std::move(content));
  return {};
}

Status History::appendResponses(std::vector<Part> parts) {
  std::vector<FunctionCall> open = pending_;
  for (const Part& part : parts) {
    if (part.functionCall) return broken("function responses cannot carry function calls");
    if (!part.functionResponse) continue;
    const FunctionResponse& response = *part.functionResponse;
    auto match = std::find_if(open.begin(), open.end(), [&](const FunctionCall& call) {
      return !response.id.empty() && !call.id.empty() ? call.id == response.id : call.name == response.name;
    });
    if (match == open.end()) return broken("a response to " + response.name + " answers no pending call");
    open.erase(match);
  }
  if (!open.empty()) return broken("the call to " + open.front().name + " has no response");
  pending_.clear();
  addUserParts(std::move(parts));
  return {};
}

History::Checkpoint History::checkpoint() const {
  return {contents_.size(), contents_.empty() ? 0 : contents_.back().parts.size(), pending_};
}

void History::rollback(const Checkpoint& checkpoint) {
  contents_.resize(std::min(contents_.size(), checkpoint.contents));
  if (!contents_.empty() && contents_.size() == checkpoint.contents) contents_.back().parts.resize(checkpoint.lastParts);
  pending_ = checkpoint.pending;
  ++revision_;
}

Status History::replaceAll(std::vector<Content> contents) {
  History rebuilt;
  for (Content& content : contents) {
    const bool answers = std::any_of(content.parts.begin(), content.parts.end(),
                                     [](const Part& part) { return part.functionResponse.has_value(); });
    Status status = content.role == Role::model ? rebuilt.appendModel(std::move(content))
                    : answers                   ? rebuilt.appendResponses(std::move(content.parts))
                                                : rebuilt.appendUser(std::move(content.parts));
    if (!status) return status;
  }
  const uint64_t revision = revision_ + 1;
  *this = std::move(rebuilt);
  revision_ = revision;
  return {};
}

Status History::replacePrefix(size_t count, std::vector<Content> replacement) {
  if (count > contents_.size()) return broken("cannot replace more contents than there are");
  for (const Content& content : replacement) {
    for (const Part& part : content.parts) {
      if (part.functionCall || part.functionResponse) return broken("a replacement cannot carry function calls or responses");
    }
  }
  if (count < contents_.size()) {
    const Content& next = contents_[count];
    const bool answersCalls = std::any_of(next.parts.begin(), next.parts.end(),
                                          [](const Part& part) { return part.functionResponse.has_value(); });
    if (next.role != Role::user || answersCalls) return broken("a replacement must end where an exchange starts");
    if (!replacement.empty() && replacement.back().role == Role::user) {
      return broken("a replacement followed by a user content must end with the model");
    }
  }
  contents_.erase(contents_.begin(), contents_.begin() + static_cast<std::ptrdiff_t>(count));
  contents_.insert(contents_.begin(), std::make_move_iterator(replacement.begin()),
                   std::make_move_iterator(replacement.end()));
  ++revision_;
  return {};
}

void History::rewriteResponses(const std::function<Edit(json::Raw& response)>& edit) {
  rewritePayloads([](Part& part) { return part.functionResponse ? &part.functionResponse->response : nullptr; }, edit);
}

void History::rewriteCallArguments(const std::function<Edit(json::Raw& args)>& edit) {
  rewritePayloads([](Part& part) { return part.functionCall ? &part.functionCall->args : nullptr; }, edit);
}

void History::rewritePayloads(json::Raw* (*payloadOf)(Part&), const std::function<Edit(json::Raw&)>& edit) {
  bool changed = false;
  for (auto content = contents_.rbegin(); content != contents_.rend(); ++content) {
    for (auto part = content->parts.rbegin(); part != content->parts.rend(); ++part) {
      json::Raw* payload = payloadOf(*part);
      if (!payload) continue;
      Edit result = edit(*payload);
      if (result == Edit::stop) {
        if (changed) ++revision_;
        return;
      }
      changed = changed || result == Edit::changed;
    }
  }
  if (changed) ++revision_;
}

}  // namespace lathe::engine
