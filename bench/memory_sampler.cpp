// Memory sampling from /proc. Samples may come from the sampler thread and from
// sampleNow() at once, so the peaks are raised with compare-and-swap.
#include "bench/memory_sampler.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace lathe::bench {
namespace {

// Field 5 of /proc/PID/stat is the process group (after "pid (comm) state ppid").
pid_t processGroupOf(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(in, line)) return -1;
  size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 1));
  std::string state;
  long ppid = 0, pgrp = -1;
  rest >> state >> ppid >> pgrp;
  return static_cast<pid_t>(pgrp);
}

// A "Name:   123 kB" field of /proc/PID/status.
long statusFieldKb(const std::string& status, const char* name) {
  size_t at = status.find(name);
  return at == std::string::npos ? 0 : std::atol(status.c_str() + at + std::char_traits<char>::length(name));
}

void raise(std::atomic<long>& peak, long value) {
  long seen = peak.load();
  while (value > seen && !peak.compare_exchange_weak(seen, value)) {
  }
}

}  // namespace

GroupMemory groupMemory(pid_t group) {
  GroupMemory out;
  DIR* dir = opendir("/proc");
  if (!dir) return out;
  while (dirent* entry = readdir(dir)) {
    if (!std::isdigit(static_cast<unsigned char>(entry->d_name[0]))) continue;
    std::string pid = entry->d_name;
    if (processGroupOf(pid) != group) continue;
    std::ifstream in("/proc/" + pid + "/status");
    std::stringstream status;
    status << in.rdbuf();
    out.rssSumKb += statusFieldKb(status.str(), "\nVmRSS:");
    out.maxHwmKb = std::max(out.maxHwmKb, statusFieldKb(status.str(), "\nVmHWM:"));
  }
  closedir(dir);
  return out;
}

MemorySampler::MemorySampler(pid_t agent, std::chrono::milliseconds interval) : agent_(agent), interval_(interval) {
  thread_ = std::thread([this] { run(); });
}

MemorySampler::~MemorySampler() { stop(); }

void MemorySampler::sampleNow() {
  GroupMemory now = groupMemory(agent_);  // the agent leads its own process group
  raise(processPeakKb_, now.maxHwmKb);
  raise(groupPeakKb_, now.rssSumKb);
}

void MemorySampler::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void MemorySampler::run() {
  while (!stopping_) {
    sampleNow();
    std::this_thread::sleep_for(interval_);
  }
}

}  // namespace lathe::bench
