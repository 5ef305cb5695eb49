// Clang thread-safety annotations (-Wthread-safety, on in clang builds): a
// member marked GUARDED_BY(m) may only be touched with m held, and the
// compiler checks it. libstdc++'s std::mutex carries no annotations, so the
// state that is annotated uses these thin wrappers: Mutex, MutexLock (a
// scoped lock that can also unlock and relock, for waits) and CondVar.
// Other compilers see plain std types.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define LATHE_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define LATHE_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) LATHE_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY LATHE_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) LATHE_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) LATHE_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) LATHE_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define EXCLUDES(...) LATHE_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) LATHE_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) LATHE_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define NO_THREAD_SAFETY_ANALYSIS LATHE_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace lathe {

class CAPABILITY("mutex") Mutex {
 public:
  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }

 private:
  friend class MutexLock;
  std::mutex mutex_;
};

// Holds a Mutex for its scope; unlock()/lock() let it go for a while (to run a
// callback without the lock) and CondVar waits on it.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mutex) ACQUIRE(mutex) : lock_(mutex.mutex_) {}
  ~MutexLock() RELEASE() {}
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void lock() ACQUIRE() { lock_.lock(); }
  void unlock() RELEASE() { lock_.unlock(); }

 private:
  friend class CondVar;
  std::unique_lock<std::mutex> lock_;
};

// A condition variable over a MutexLock. Waits are written as loops around
// wait(), so the analysis sees the lock held while the condition is read.
class CondVar {
 public:
  void wait(MutexLock& lock) { cv_.wait(lock.lock_); }
  // False when the time ran out.
  template <class Rep, class Period>
  bool waitFor(MutexLock& lock, std::chrono::duration<Rep, Period> time) {
    return cv_.wait_for(lock.lock_, time) == std::cv_status::no_timeout;
  }
  void notifyOne() { cv_.notify_one(); }
  void notifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace lathe
