// Every page of a paginated MCP list (tools/list, prompts/list): follows
// nextCursor until a page has none. A server that pages forever (a cursor
// it gave before, more than kMaxListPages pages or kMaxListItems items) ends
// the listing with an error instead of keeping Lathe asking. `done` runs
// once, on the peer's reading thread (or at once if the request cannot go).
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "protocol/base/json.h"
#include "protocol/base/result.h"
#include "protocol/jsonrpc/peer.h"

namespace lathe::tools::mcp {

inline constexpr size_t kMaxListPages = 1000;
inline constexpr size_t kMaxListItems = 10000;

template <class Item>
struct ListPaging {
  std::string method;  // e.g. tools/list
  std::string key;     // the result's array, e.g. tools
  Item (*read)(const json::Value&) = nullptr;
  std::function<void(Result<std::vector<Item>>)> done;
  std::vector<Item> items;
  std::set<std::string> cursors;
};

template <class Item>
void listNextPage(std::shared_ptr<rpc::Peer> peer, std::shared_ptr<ListPaging<Item>> paging, std::string cursor) {
  auto params = [cursor](json::Writer& w) {
    w.StartObject();
    if (!cursor.empty()) json::put(w, "cursor", cursor);
    w.EndObject();
  };
  std::weak_ptr<rpc::Peer> weak = peer;
  peer->request(paging->method, params, [weak, paging](Result<rpc::Response> page) {
    auto& p = *paging;
    if (!page) return p.done(page.error());
    const json::Value* list = page->result ? json::find(*page->result, p.key.c_str()) : nullptr;
    if (!list || !list->IsArray()) {
      return p.done(makeError(Errc::invalid_request, p.method + " answered without a " + p.key + " array"));
    }
    for (const auto& item : list->GetArray()) {
      if (item.IsObject() && json::getStr(item, "name")) p.items.push_back(p.read(item));
    }
    std::string next = json::getStr(*page->result, "nextCursor").value_or("");
    if (next.empty()) return p.done(std::move(p.items));
    if (!p.cursors.insert(next).second || p.cursors.size() > kMaxListPages || p.items.size() > kMaxListItems) {
      return p.done(makeError(Errc::invalid_request, p.method + " keeps paging (a repeated cursor, or past " +
                                                         std::to_string(kMaxListPages) + " pages or " +
                                                         std::to_string(kMaxListItems) + " " + p.key + ")"));
    }
    auto live = weak.lock();
    if (!live) return p.done(makeError(Errc::cancelled, p.method + ": the server's connection closed"));
    listNextPage(std::move(live), paging, std::move(next));
  });
}

template <class Item>
void listAllPages(std::shared_ptr<rpc::Peer> peer, std::string method, std::string key,
                  Item (*read)(const json::Value&), std::function<void(Result<std::vector<Item>>)> done) {
  auto paging = std::make_shared<ListPaging<Item>>();
  paging->method = std::move(method);
  paging->key = std::move(key);
  paging->read = read;
  paging->done = std::move(done);
  listNextPage(std::move(peer), std::move(paging), "");
}

}  // namespace lathe::tools::mcp
