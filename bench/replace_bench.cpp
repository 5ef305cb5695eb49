// replace_bench: times the replace tool changing one occurrence in a generated
// file (10 MB by default) through the Tool API with the disk FileStore (build,
// shouldConfirmExecute, execute), and compares it with a bare read + write of
// the same file and with the disk store's own read + atomic write. Prints the
// median, min and max of N runs. Single-threaded.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fcntl.h>

#include "engine/scheduler/tool_scheduler.h"
#include "engine/session/editor_client.h"
#include "protocol/acp/updates.h"
#include "protocol/jsonrpc/framing.h"
#include "protocol/jsonrpc/message.h"
#include "tools/files/file_tools.h"
#include "tools/core/file_store.h"
#include "tools/core/workspace.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::tools;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int runs = 9;
  size_t megabytes = 10;
  std::string dir = "/tmp";
  bool turnOnly = false;  // for profiling the turn path alone
};

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Stats {
  std::vector<double> ms;
  void print(const char* label) const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("%-34s median %8.2f ms   min %8.2f   max %8.2f\n", label, sorted[sorted.size() / 2], sorted.front(),
                sorted.back());
  }
};

// The editor as the ACP server sees it: every update and permission request
// is encoded and framed exactly as for stdout, then written to /dev/null; the
// person allows the edit.
class WireEditor final : public engine::EditorClient {
 public:
  WireEditor() : fd_(::open("/dev/null", O_WRONLY)) {}
  ~WireEditor() override { ::close(fd_); }
  void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) override {
    emit(rpc::encodeNotification("session/update",
                                 [&](json::Writer& w) { acp::writeSessionNotification(w, sessionId, update); }));
  }
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                           const CancelToken&) override {
    emit(rpc::encodeRequest(rpc::Id{json::Raw{"1"}}, "session/request_permission",
                            [&](json::Writer& w) { request.writeJson(w); }));
    acp::RequestPermissionResponse allow;
    allow.cancelled = false;
    allow.optionId = "allow_once";
    return allow;
  }
  acp::ClientCapabilities capabilities() const override { return {}; }
  Result<std::string> readTextFile(const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor buffers");
  }
  Status writeTextFile(const std::string&, const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "no editor buffers");
  }

 private:
  // As the peer writes a frame: the text, then its newline.
  void emit(const std::string& json) {
    if (::write(fd_, json.data(), json.size()) < 0 || ::write(fd_, "\n", 1) < 0) std::perror("write");
  }
  int fd_;
};

// Numbered source-like lines up to `bytes`, with one unique line in the middle.
std::string generate(size_t bytes) {
  std::string text;
  text.reserve(bytes + 128);
  char line[128];
  for (size_t i = 0; text.size() < bytes; ++i) {
    if (i == 100000) {
      text += "    int unique_marker = 42;  // the line the benchmark edits\n";
      continue;
    }
    int n = std::snprintf(line, sizeof line, "    value_%08zu = compute(value_%08zu, %zu);  // filler\n", i, i / 2, i % 97);
    text.append(line, static_cast<size_t>(n));
  }
  return text;
}

void writePlain(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string readPlain(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string text(fs::file_size(p), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

bool parseArgs(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--runs" && (v = next())) {
      o.runs = std::max(1, std::atoi(v));
    } else if (a == "--size-mb" && (v = next())) {
      o.megabytes = static_cast<size_t>(std::max(1, std::atoi(v)));
    } else if (a == "--dir" && (v = next())) {
      o.dir = v;
    } else if (a == "--turn-only") {
      o.turnOnly = true;
    } else {
      std::fprintf(stderr, "usage: replace_bench [--runs N] [--size-mb MB] [--dir DIR] [--turn-only]\n");
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parseArgs(argc, argv, options)) return 2;

  std::string tmpl = (fs::path(options.dir) / "lathe-replace-bench-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    std::fprintf(stderr, "cannot create a directory under %s: %s\n", options.dir.c_str(), std::strerror(errno));
    return 1;
  }
  const fs::path root = fs::canonical(tmpl);
  const fs::path file = root / "big.cpp";
  const std::string original = generate(options.megabytes * 1024 * 1024);

  auto workspace = Workspace::create(root.string());
  if (!workspace) {
    std::fprintf(stderr, "%s\n", workspace.error().message.c_str());
    return 1;
  }
  ToolContext context;
  context.workspace = std::make_shared<const Workspace>(std::move(workspace).value());
  context.files = makeDiskFileStore();
  auto replace = makeReplaceTool(context);

  const std::string args = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", file.string());
    json::put(w, "instruction", "Change the marker value");
    json::put(w, "old_string", "int unique_marker = 42;");
    json::put(w, "new_string", "int unique_marker = 43;");
    w.EndObject();
  });
  auto params = json::parse(args).value();

  Stats total, build, confirm, execute, bare, store;
  int failures = 0;
  for (int run = 0; !options.turnOnly && run < options.runs + 1; ++run) {  // the first run warms the page cache
    writePlain(file, original);
    auto t0 = Clock::now();
    auto built = replace->build(params);
    double tBuild = msSince(t0);
    auto t1 = Clock::now();
    auto details = built.invocation ? built.invocation->shouldConfirmExecute(CancelToken())
                                    : Result<std::optional<ConfirmationDetails>>(makeError(Errc::internal, "no build"));
    double tConfirm = msSince(t1);
    bool confirmed = details.ok();
    details = std::optional<ConfirmationDetails>{};  // shown and gone, as in a turn: its texts are not kept through execute
    auto t2 = Clock::now();
    ToolResult result = built.invocation ? built.invocation->execute(CancelToken(), {}) : ToolResult{};
    double tExecute = msSince(t2);
    double tTotal = msSince(t0);
    if (!confirmed || result.error || !built.invocation) {
      ++failures;
      if (result.error) std::fprintf(stderr, "replace failed: %s\n", result.error->message.c_str());
    }
    if (run == 0) continue;
    total.ms.push_back(tTotal);
    build.ms.push_back(tBuild);
    confirm.ms.push_back(tConfirm);
    execute.ms.push_back(tExecute);
  }

  // The same call as a turn runs it: scheduler, permission request and final
  // update encoded for the wire.
  // Asked (the diff travels in the permission request) and in autoEdit (it
  // travels in the final update).
  Stats turn, autoTurn;
  for (auto [mode0, stats] : {std::pair{engine::ApprovalMode::standard, &turn}, std::pair{engine::ApprovalMode::autoEdit, &autoTurn}}) {
    tools::ToolRegistry registry;
    (void)registry.add(makeReplaceTool(context));
    WireEditor editor;
    std::atomic<engine::ApprovalMode> mode{mode0};
    engine::ToolScheduler scheduler(registry, editor, "bench", mode);
    for (int run = 0; run < options.runs + 1; ++run) {
      writePlain(file, original);
      auto t0 = Clock::now();
      auto parts = scheduler.run({engine::FunctionCall{"", "replace", json::Raw{args}}}, CancelToken());
      if (run > 0) stats->ms.push_back(msSince(t0));
      if (parts.empty() || parts[0].functionResponse->response.text.find("\"error\"") != std::string::npos ||
          readPlain(file).find("int unique_marker = 43;") == std::string::npos) {
        ++failures;
      }
    }
  }

  for (int run = 0; !options.turnOnly && run < options.runs; ++run) {
    writePlain(file, original);
    auto t0 = Clock::now();
    std::string text = readPlain(file);
    writePlain(file, text);
    bare.ms.push_back(msSince(t0));
  }

  auto disk = makeDiskFileStore();
  for (int run = 0; !options.turnOnly && run < options.runs; ++run) {
    writePlain(file, original);
    auto t0 = Clock::now();
    auto text = disk->readText(file.string(), CancelToken());
    Status written = text ? disk->writeText(file.string(), text.value(), CancelToken()) : Status(text.error());
    store.ms.push_back(msSince(t0));
    if (!written) ++failures;
  }

  std::printf("replace_bench: one replacement in a %.1f MB file, %d runs (dir %s)\n",
              static_cast<double>(original.size()) / (1024.0 * 1024.0), options.runs, options.dir.c_str());
  if (!options.turnOnly) {
    total.print("replace: build+confirm+execute");
    build.print("  build");
    confirm.print("  shouldConfirmExecute");
    execute.print("  execute (re-read, write, fsync)");
  }
  turn.print("as a turn runs it (ACP payloads)");
  autoTurn.print("  the same in autoEdit (no question)");
  if (!options.turnOnly) {
    bare.print("bare read + write (fstream)");
    store.print("disk store read + atomic write");
  }
  if (failures) std::printf("failures: %d\n", failures);

  std::error_code ec;
  fs::remove_all(root, ec);
  return failures ? 1 : 0;
}
