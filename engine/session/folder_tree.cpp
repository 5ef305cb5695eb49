// Breadth-first listing, rendered as an indented tree.
#include "engine/session/folder_tree.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <memory>
#include <vector>

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

struct Node {
  std::string name;
  bool dir = false;
  bool cut = false;  // entries left out for the budget
  std::vector<std::unique_ptr<Node>> children;
};

struct Pending {
  Node* node;
  std::string abs;
  std::string rel;
  tools::IgnoreRules rules;
};

// The folder's entries worth showing, folders first, each group by name.
std::vector<std::unique_ptr<Node>> readEntries(const Pending& at) {
  std::vector<std::unique_ptr<Node>> entries;
  std::error_code ec;
  fs::directory_iterator it(at.abs, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name == ".git") continue;
    std::error_code typeError;
    const bool dir = it->symlink_status(typeError).type() == fs::file_type::directory;
    if (at.rules.isIgnored(at.rel.empty() ? name : at.rel + "/" + name, dir)) continue;
    auto node = std::make_unique<Node>();
    node->name = std::move(name);
    node->dir = dir;
    entries.push_back(std::move(node));
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a->dir != b->dir ? a->dir : a->name < b->name;
  });
  return entries;
}

void render(const Node& node, const std::string& indent, std::string& out) {
  for (size_t i = 0; i < node.children.size(); ++i) {
    const Node& child = *node.children[i];
    const bool last = i + 1 == node.children.size() && !node.cut;
    out += indent + (last ? "└── " : "├── ") + child.name + (child.dir ? "/" : "") + "\n";
    if (child.dir) render(child, indent + (last ? "    " : "│   "), out);
  }
  if (node.cut) out += indent + "└── …\n";
}

}  // namespace

std::string folderTree(const std::string& root, const FolderTreeOptions& options, const CancelToken& cancel) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return "";
  Node top;
  top.dir = true;
  size_t items = 0;
  std::deque<Pending> queue;
  queue.push_back(Pending{&top, root, "", tools::IgnoreRules::forRoot(root, options.ignore)});
  while (!queue.empty() && !cancel.cancelled()) {
    Pending at = std::move(queue.front());
    queue.pop_front();
    if (items >= options.maxItems) {
      at.node->cut = true;  // never opened: its entries are not shown
      continue;
    }
    for (auto& entry : readEntries(at)) {
      if (items >= options.maxItems) {
        at.node->cut = true;
        break;
      }
      ++items;
      Node* child = entry.get();
      at.node->children.push_back(std::move(entry));
      if (child->dir) {
        std::string rel = at.rel.empty() ? child->name : at.rel + "/" + child->name;
        std::string abs = at.abs + "/" + child->name;
        tools::IgnoreRules rules = at.rules.enter(abs, rel);
        queue.push_back(Pending{child, std::move(abs), std::move(rel), std::move(rules)});
      }
    }
  }
  std::string out = root + "/\n";
  render(top, "", out);
  return out;
}

}  // namespace lathe::engine
