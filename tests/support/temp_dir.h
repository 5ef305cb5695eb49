// A fresh directory under the system temp dir for one test, removed at the end
// even when a test made parts of it read-only. path is canonical, as tools
// report paths. Shared by the unit and end-to-end tests.
#pragma once

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lathe::testing {

struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string pattern = (parent / "lathe-test-XXXXXX").string();
    path = std::filesystem::canonical(::mkdtemp(pattern.data()));
  }
  ~TempDir() {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                   ec);
    }
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  std::string str() const { return path.string(); }
  TempDir& operator=(const TempDir&) = delete;

  // Writes a file (and its folders) below the directory; returns its path.
  std::filesystem::path write(const std::string& rel, const std::string& content) const {
    std::filesystem::path p = path / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  // Every entry below the directory, as sorted relative paths.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
      names.push_back(e.path().lexically_relative(path).string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
};

// The whole content of a file, as bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace lathe::testing
