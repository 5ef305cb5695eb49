// snapshot_bench: what rewinds add to a turn on the search benchmarks' tree
// (30 packages: 30,000 files), through the ChangeRecorder the session uses:
// the first snapshot of a fresh shadow repository (every file hashed once),
// a warm one with nothing changed (what each approved command pays before it
// runs), a command's whole cost (mark, 5 files rewritten, changedSince with
// their diffs) and the disk one such turn adds to the shadow repository.
// Medians of --runs. Never asserts.
//
//   cmake --build build --target snapshot_bench
//   build/bench/snapshot_bench [--runs 10] [--tree DIR] [--packages 30]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/bench_tree.h"
#include "tools/snapshots/change_recorder.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

uintmax_t bytesUnder(const fs::path& dir) {
  uintmax_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  }
  return total;
}

// Five source files, each rewritten with a line more.
std::vector<fs::path> touched(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(root / "src")) {
    if (entry.is_regular_file() && entry.path().extension() == ".cpp") out.push_back(entry.path());
    if (out.size() == 5) break;
  }
  return out;
}

void rewrite(const std::vector<fs::path>& files, int run) {
  for (const auto& file : files) std::ofstream(file, std::ios::app) << "// run " << run << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string tree = std::string(LATHE_BENCH_DEFAULT_TREE) + "-30k";
  int runs = 10, packages = 30;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (arg == "--tree" && i + 1 < argc) tree = argv[++i];
    else if (arg == "--packages" && i + 1 < argc) packages = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: snapshot_bench [--runs N] [--tree DIR] [--packages N (x1000 files)]\n");
      return 2;
    }
  }
  auto stats = lathe::bench::cachedTree(tree);
  if (!stats) stats = lathe::bench::generateTree(tree, packages);
  const fs::path store = fs::path(tree).parent_path() / "bench-snapshots";
  fs::remove_all(store);
  auto workspace = lathe::tools::Workspace::create(tree);
  if (!workspace) {
    std::fprintf(stderr, "snapshot_bench: %s\n", workspace.error().message.c_str());
    return 1;
  }
  auto shared = std::make_shared<const lathe::tools::Workspace>(std::move(workspace).value());
  lathe::tools::ChangeRecorder recorder(shared, store.string(), 20 * 1024 * 1024);

  auto start = Clock::now();
  auto first = recorder.mark();
  const double cold = msSince(start);
  if (!first) {
    std::fprintf(stderr, "snapshot_bench: %s\n", first.error().message.c_str());
    return 1;
  }
  const uintmax_t afterFirst = bytesUnder(store);

  std::vector<double> warm, command;
  const auto files = touched(tree);
  uintmax_t before = 0, after = 0;
  for (int run = 0; run < runs; ++run) {
    start = Clock::now();
    auto mark = recorder.mark();
    warm.push_back(msSince(start));
    before = bytesUnder(store);
    start = Clock::now();
    mark = recorder.mark();
    rewrite(files, run);
    auto changed = recorder.changedSince(*mark);
    command.push_back(msSince(start));
    after = bytesUnder(store);
    if (!changed || changed->diffs.size() != files.size()) {
      std::fprintf(stderr, "snapshot_bench: expected %zu changed files\n", files.size());
      return 1;
    }
    (void)recorder.take();
  }
  std::printf("tree: %s, %zu source files, %.0f MB; median of %d runs\n", tree.c_str(), stats->files, stats->bytes / 1e6, runs);
  std::printf("%-52s %10.1f ms\n", "first snapshot (fresh shadow repository)", cold);
  std::printf("%-52s %10.1f ms   (target <= 30 ms)\n", "warm snapshot, nothing changed", median(warm));
  std::printf("%-52s %10.1f ms\n", "a command: mark, 5 files rewritten, their diffs", median(command));
  std::printf("%-52s %10.1f MB\n", "shadow repository after the first snapshot", afterFirst / 1e6);
  std::printf("%-52s %10.1f KB\n", "disk one such turn adds", (after - before) / 1e3);
  return 0;
}
