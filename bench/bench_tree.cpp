#include "bench/bench_tree.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace lathe::bench {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStamp = ".lathe-bench-tree-v1";

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

std::vector<std::string> makeWords(Rng& rng) {
  static const char* kSyllables[] = {"ka", "lo", "mi", "ne", "ra", "to", "su", "vi", "de", "po", "qua", "zer",
                                     "ban", "tix", "mor", "gle", "ster", "pin", "dul", "cor", "fa", "wen"};
  std::vector<std::string> words;
  for (int i = 0; i < 600; ++i) {
    std::string w;
    size_t n = 2 + rng.below(3);
    for (size_t k = 0; k < n; ++k) w += kSyllables[rng.below(std::size(kSyllables))];
    words.push_back(w);
  }
  return words;
}

std::string capitalised(std::string w) {
  if (!w.empty()) w[0] = static_cast<char>(w[0] - 'a' + 'A');
  return w;
}

// One file of roughly `bytes` bytes of code-like lines. Rare lines carry the
// needles the benchmark searches for.
std::string makeFile(Rng& rng, const std::vector<std::string>& words, size_t bytes, bool poolFile) {
  auto word = [&] { return words[rng.below(words.size())]; };
  std::string out;
  out.reserve(bytes + 200);
  int indent = 0;
  while (out.size() < bytes) {
    std::string line(static_cast<size_t>(indent) * 2, ' ');
    switch (rng.below(12)) {
      case 0: line += "class " + capitalised(word()) + " : public " + capitalised(word()) + " {"; indent = 1; break;
      case 1: line += "int " + word() + "_" + word() + " = " + word() + "(" + word() + ", " + std::to_string(rng.below(1000)) + ");"; break;
      case 2: line += "// " + word() + " " + word() + " " + word() + " " + word() + " " + word() + "."; break;
      case 3: line += "if (" + word() + " != nullptr && " + word() + "->" + word() + "()) {"; break;
      case 4: line += "return " + word() + "." + word() + "(" + word() + ");"; break;
      case 5: line += "def " + word() + "_" + word() + "(self, " + word() + ", " + word() + "=None):"; break;
      case 6: line += "const " + word() + " = require('" + word() + "/" + word() + "');"; break;
      case 7: line += "std::vector<" + capitalised(word()) + "> " + word() + "s;"; break;
      case 8: line += "}"; indent = 0; break;
      case 9: line += "throw " + capitalised(word()) + "Error(\"" + word() + " " + word() + " failed\");"; break;
      case 10:
        if (rng.below(40) == 0) {
          line += "// updated 20" + std::to_string(10 + rng.below(15)) + "-0" + std::to_string(1 + rng.below(9)) + "-1" +
                  std::to_string(rng.below(10)) + " by " + word();
        } else {
          line += "for (auto& " + word() + " : " + word() + ") " + word() + "(" + word() + ");";
        }
        break;
      default:
        if (poolFile && rng.below(25) == 0) {
          line += "auto pool = ConnectionPool::create(" + word() + ", " + std::to_string(rng.below(64)) + ");";
        } else if (rng.below(30) == 0) {
          line += "validate_" + word() + "(" + word() + ", " + word() + ");";
        } else {
          line += word() + "->" + word() + "(" + word() + " + " + word() + " * " + std::to_string(rng.below(100)) + ");";
        }
    }
    out += line;
    out += '\n';
  }
  return out;
}

void writeFile(const fs::path& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
  ::close(fd);
}

}  // namespace

TreeStats generateTree(const std::string& tree, int packages) {
  const fs::path root = tree;
  fs::remove_all(root);
  fs::create_directories(root / ".git");
  writeFile(root / ".git/HEAD", "ref: refs/heads/main\n");
  writeFile(root / ".gitignore", "# generated output and logs are not source\ngenerated/\nlogs/\n*.tmp\n");
  Rng rng(42);
  auto words = makeWords(rng);
  static const char* kExtensions[] = {".cpp", ".h", ".py", ".js", ".ts", ".md", ".txt", ".cc"};
  TreeStats stats;
  for (int p = 0; p < packages; ++p) {
    for (int m = 0; m < 25; ++m) {
      fs::path dir = root / "src" / ("pkg" + std::to_string(p)) / ("mod" + std::to_string(m));
      fs::create_directories(dir);
      if (m == 0) writeFile(dir / ".gitignore", "*.o\nscratch/\n");
      for (int f = 0; f < 40; ++f) {
        size_t size = 1024 + rng.below(17 * 1024);
        bool pool = rng.below(50) == 0;
        std::string name = words[rng.below(words.size())] + "_" + std::to_string(f) + kExtensions[rng.below(std::size(kExtensions))];
        std::string content = makeFile(rng, words, size, pool);
        writeFile(dir / name, content);
        stats.files += 1;
        stats.bytes += content.size();
      }
      if (m == 0) {
        writeFile(dir / "leftover.o", makeFile(rng, words, 4096, true));       // ignored by the nested .gitignore
        writeFile(dir / "notes.tmp", makeFile(rng, words, 4096, true));        // ignored by the root .gitignore
      }
    }
  }
  // Ignored folders full of matches: a search that ignores nothing pays for them.
  for (const char* ignored : {"generated", "logs"}) {
    for (int d = 0; d < 20; ++d) {
      fs::path dir = root / ignored / ("part" + std::to_string(d));
      fs::create_directories(dir);
      for (int f = 0; f < 100; ++f) writeFile(dir / ("out" + std::to_string(f) + ".cpp"), makeFile(rng, words, 8192, true));
    }
  }
  // A couple of binary files.
  std::string binary(65536, '\0');
  for (size_t i = 0; i < binary.size(); i += 7) binary[i] = static_cast<char>(rng.below(256));
  writeFile(root / "src/blob.bin", binary + "ConnectionPool");
  writeFile(root / kStamp, std::to_string(stats.files) + " " + std::to_string(stats.bytes) + "\n");
  return stats;
}

std::optional<TreeStats> cachedTree(const std::string& tree) {
  std::ifstream in(fs::path(tree) / kStamp);
  TreeStats stats;
  if (!(in >> stats.files >> stats.bytes)) return std::nullopt;
  return stats;
}

}  // namespace lathe::bench
