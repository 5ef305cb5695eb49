// Samples an agent's memory from /proc while it runs: the largest high-water
// mark (VmHWM) of any one process in its process group, and the peak of the
// resident memory summed over the group (the agent plus whatever it spawned
// or re-launched).
// wait4's ru_maxrss is no use for small agents: it keeps the RSS of the
// spawning process (this benchmark) as a floor. Runs its own sampling thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace lathe::bench {

class MemorySampler {
 public:
  MemorySampler(pid_t agent, std::chrono::milliseconds interval);
  ~MemorySampler();  // stops sampling
  MemorySampler(const MemorySampler&) = delete;
  MemorySampler& operator=(const MemorySampler&) = delete;

  void sampleNow();  // one extra sample from the calling thread
  void stop();
  long processPeakKb() const { return processPeakKb_; }
  long groupPeakKb() const { return groupPeakKb_; }

 private:
  void run();

  pid_t agent_;
  std::chrono::milliseconds interval_;
  std::atomic<bool> stopping_{false};
  std::atomic<long> processPeakKb_{0};
  std::atomic<long> groupPeakKb_{0};
  std::thread thread_;
};

struct GroupMemory {
  long rssSumKb = 0;   // VmRSS summed over the group, now
  long maxHwmKb = 0;   // the largest VmHWM in the group
};
GroupMemory groupMemory(pid_t group);

}  // namespace lathe::bench
