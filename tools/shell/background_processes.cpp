// Background commands: each entry's life is spawned and watched on the
// reactor, ended by whoever claims it first (the reactor once the whole tree
// is gone, or kill() on its caller's thread); the registry is guarded by
// mutex_, each entry's state by its own mutex.
#include "tools/shell/background_processes.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>

#include "tools/process/process_tree.h"
#include "tools/shell/terminal_text.h"

namespace lathe::tools::shell {
namespace {

// How often a command whose shell exited is looked at for the rest of its
// tree (a /proc scan), besides when its output ends.
constexpr std::chrono::milliseconds kTreeCheck{500};

}  // namespace

struct BackgroundProcesses::Entry : std::enable_shared_from_this<BackgroundProcesses::Entry> {
  Entry(const BackgroundOptions& options, exec::Executor& e)
      : executor(e), keepBytes(options.keepBytes), killGrace(options.killGrace) {}

  exec::Executor& executor;
  size_t keepBytes;
  std::chrono::milliseconds killGrace;
  std::string logDir;

  mutable std::mutex m;
  std::condition_variable cv;
  BackgroundInfo info;       // guarded by m
  std::string recent;        // guarded by m
  uint64_t dropped = 0;      // guarded by m
  bool started = false;      // guarded by m: spawned, or failed to
  std::optional<Error> spawnError;  // guarded by m
  bool ending = false;       // guarded by m: claimed by whoever ends it
  bool finished = false;     // guarded by m

  // The reactor (watch callbacks) until the entry is claimed, then the claimant.
  std::unique_ptr<process::ProcessRunner> runner;
  int logFd = -1;

  void openLog(int64_t id) {
    if (logDir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(logDir, ec);
    std::string path = logDir + "/background-" + std::to_string(id) + ".log";
    logFd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (logFd < 0) return;
    std::string earlier;
    {
      std::lock_guard lock(m);
      info.logPath = path;
      earlier = recent;  // what an adopted command printed before
    }
    writeLog(earlier);
  }

  void writeLog(std::string_view bytes) {
    while (logFd >= 0 && !bytes.empty()) {
      ssize_t n = ::write(logFd, bytes.data(), bytes.size());
      if (n <= 0) {
        ::close(logFd);
        logFd = -1;
        return;
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
  }

  void append(std::string_view chunk) {
    writeLog(chunk);
    std::lock_guard lock(m);
    info.outputBytes += chunk.size();
    recent.append(chunk);
    if (recent.size() > 2 * keepBytes) {
      size_t drop = recent.size() - keepBytes;
      recent.erase(0, drop);
      dropped += drop;
    }
  }

  // On the reactor: spawns the command (unless adopted) and starts watching it.
  void begin(std::optional<process::RunSpec> spec) {
    if (!runner) {
      auto spawned = process::ProcessRunner::spawn(*spec, executor);
      if (!spawned) {
        std::lock_guard lock(m);
        spawnError = spawned.error();
        started = finished = true;
        info.running = false;
        cv.notify_all();
        return;
      }
      runner = std::move(spawned).value();
      std::lock_guard lock(m);
      info.id = runner->pgid();
    }
    openLog(runner->pgid());
    process::WatchCallbacks callbacks;
    callbacks.onOutput = [this](std::string_view chunk) { append(chunk); };
    callbacks.onExit = [this] {
      runner->reapIfExited();
      checkTree();
    };
    callbacks.onOutputEnd = [this] { checkTree(); };
    callbacks.onTick = [this] { checkTree(); };
    runner->watch({std::chrono::milliseconds(0), kTreeCheck}, std::move(callbacks));
    std::lock_guard lock(m);
    started = true;
    cv.notify_all();
  }

  // A watch callback: once the shell exited and nothing of its tree is left,
  // the entry ends (outside the callback, which cannot unwatch).
  void checkTree() {
    if (!runner->exited() || !process::processTree(runner->pgid()).empty()) return;
    executor.defer([weak = weak_from_this()] {
      if (auto self = weak.lock()) self->endByItself();
    });
  }

  bool claim() {
    std::lock_guard lock(m);
    if (ending || finished) return false;
    ending = true;
    return true;
  }

  // On the reactor.
  void endByItself() {
    if (!claim()) return;
    runner->readAvailable();  // what the tree wrote last
    runner->unwatch();
    finish(false);
  }

  // Any thread but the reactor: the kill waits out a grace.
  void endByKill() {
    if (!claim()) return waitFinished();
    runner->unwatch();  // from here on this thread alone touches the runner
    runner->killTree(killGrace);
    finish(true);
  }

  void finish(bool killed) {
    process::RunExit exit = runner->exit();
    runner.reset();
    if (logFd >= 0) ::close(logFd);
    logFd = -1;
    std::lock_guard lock(m);
    info.running = false;
    info.exitCode = exit.exitCode;
    info.signal = exit.signal;
    info.killed = killed;
    finished = true;
    cv.notify_all();
  }

  void waitFinished() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return finished; });
  }

  BackgroundInfo snapshot() const {
    std::lock_guard lock(m);
    return info;
  }
};

BackgroundProcesses::BackgroundProcesses(BackgroundOptions options)
    : options_(options), executor_(options.executor ? *options.executor : exec::Executor::shared()) {}

BackgroundProcesses::~BackgroundProcesses() { killAll(); }

Result<BackgroundInfo> BackgroundProcesses::start(process::RunSpec spec, std::string command, std::string logDir) {
  auto entry = std::make_shared<Entry>(options_, executor_);
  entry->info.command = std::move(command);
  entry->info.cwd = spec.cwd;
  entry->logDir = std::move(logDir);
  return launch(std::move(entry), &spec, nullptr);
}

Result<BackgroundInfo> BackgroundProcesses::adopt(std::unique_ptr<process::ProcessRunner> runner, std::string command,
                                                  std::string cwd, std::string_view earlierOutput,
                                                  std::string logDir) {
  if (!runner) return makeError(Errc::invalid_params, "adopt: no process");
  auto entry = std::make_shared<Entry>(options_, executor_);
  entry->info.id = runner->pgid();
  entry->info.command = std::move(command);
  entry->info.cwd = std::move(cwd);
  entry->info.exitCode = runner->exit().exitCode;
  entry->info.signal = runner->exit().signal;
  entry->logDir = std::move(logDir);
  entry->append(earlierOutput);  // no log yet: begin() writes it when it opens the log
  return launch(std::move(entry), nullptr, std::move(runner));
}

Result<BackgroundInfo> BackgroundProcesses::launch(std::shared_ptr<Entry> entry, process::RunSpec* spec,
                                                   std::unique_ptr<process::ProcessRunner> runner) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return makeError(Errc::cancelled, "the session has ended; no new background commands");
  }
  entry->info.started = std::chrono::system_clock::now();
  entry->runner = std::move(runner);
  std::optional<process::RunSpec> specCopy;
  if (spec) specCopy = std::move(*spec);
  // Spawned on the reactor thread, not on this worker: bwrap's
  // --die-with-parent (PR_SET_PDEATHSIG) follows the *thread* that spawned
  // the sandbox, and executor workers retire when idle, which would kill a
  // sandboxed command that outlives this call; the reactor lives as long as
  // the process.
  executor_.defer([entry, s = std::move(specCopy)]() mutable { entry->begin(std::move(s)); });
  {
    std::unique_lock lock(entry->m);
    entry->cv.wait(lock, [&] { return entry->started; });
    if (entry->spawnError) return *entry->spawnError;
  }
  std::unique_lock lock(mutex_);
  if (closed_) {  // killAll ran meanwhile
    lock.unlock();
    entry->endByKill();
    return makeError(Errc::cancelled, "the session has ended; no new background commands");
  }
  int64_t id = entry->snapshot().id;
  if (auto old = entries_.find(id); old != entries_.end()) {  // a pid reused after the old tree ended
    std::shared_ptr<Entry> previous = old->second;
    entries_.erase(old);
    lock.unlock();
    previous->endByKill();
    lock.lock();
  }
  entries_[id] = entry;
  pruneFinished();
  return entry->snapshot();
}

void BackgroundProcesses::pruneFinished() {
  std::vector<std::map<int64_t, std::shared_ptr<Entry>>::iterator> finished;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    std::lock_guard lock(it->second->m);
    if (it->second->finished) finished.push_back(it);
  }
  if (finished.size() <= options_.keepFinished) return;
  std::sort(finished.begin(), finished.end(),
            [](auto a, auto b) { return a->second->snapshot().started < b->second->snapshot().started; });
  for (size_t i = 0; i + options_.keepFinished < finished.size(); ++i) entries_.erase(finished[i]);
}

std::vector<BackgroundInfo> BackgroundProcesses::list() const {
  std::vector<BackgroundInfo> infos;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : entries_) infos.push_back(entry->snapshot());
  }
  std::sort(infos.begin(), infos.end(), [](const BackgroundInfo& a, const BackgroundInfo& b) {
    return a.started != b.started ? a.started < b.started : a.id < b.id;
  });
  return infos;
}

std::optional<BackgroundInfo> BackgroundProcesses::info(int64_t id) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  return it->second->snapshot();
}

Result<BackgroundOutput> BackgroundProcesses::readOutput(int64_t id, size_t maxLines, size_t maxBytes) const {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return makeError(Errc::not_found, "no background command with id " + std::to_string(id));
    entry = it->second;
  }
  BackgroundOutput out;
  std::string raw;
  {
    std::lock_guard lock(entry->m);
    out.info = entry->info;
    raw = entry->recent;
    out.olderDropped = entry->dropped > 0;
  }
  std::string_view view(raw);
  if (out.olderDropped) {  // the first kept line is a fragment
    size_t nl = view.find('\n');
    view.remove_prefix(nl == std::string_view::npos ? 0 : nl + 1);
  }
  std::string text = terminalText(view);
  std::vector<std::string_view> lines;
  std::string_view rest(text);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  out.linesKept = lines.size();
  size_t first = lines.size() > maxLines ? lines.size() - maxLines : 0;
  size_t bytes = 0;
  size_t from = lines.size();
  while (from > first && bytes + lines[from - 1].size() + 1 <= maxBytes) bytes += lines[--from].size() + 1;
  if (from == lines.size() && from > first) {  // one line longer than maxBytes: its end
    std::string_view last = lines.back();
    out.text = std::string(last.substr(utf8CeilBoundary(last, last.size() - std::min(last.size(), maxBytes))));
    out.linesShown = 1;
    return out;
  }
  for (size_t i = from; i < lines.size(); ++i) {
    out.text.append(lines[i]);
    out.text += '\n';
  }
  out.linesShown = lines.size() - from;
  return out;
}

Status BackgroundProcesses::kill(int64_t id) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return makeError(Errc::not_found, "no background command with id " + std::to_string(id));
    entry = it->second;
  }
  entry->endByKill();  // returns when the tree is gone (killProcessTree gives up a second past the grace)
  return {};
}

void BackgroundProcesses::killAll() {
  std::map<int64_t, std::shared_ptr<Entry>> entries;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    entries.swap(entries_);
  }
  // All trees end in parallel, each kill waiting out its own grace on a
  // worker (inline in manual mode, where nothing runs unless driven).
  std::shared_ptr<Entry> here;
  for (auto& [id, entry] : entries) {
    if (!here || executor_.manual()) {
      if (here) here->endByKill();
      here = entry;
    } else {
      executor_.post([e = entry] { e->endByKill(); });
    }
  }
  if (here) here->endByKill();
  for (auto& [id, entry] : entries) entry->waitFinished();
}

}  // namespace lathe::tools::shell
