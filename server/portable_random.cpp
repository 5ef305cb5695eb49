// LATHE_PORTABLE builds only. The static libstdc++ of GCC 12 on Debian 12 seeds
// std::random_device with arc4random(), which glibc has only since 2.36; this
// definition takes its place at link time, so the binary also runs on older
// glibc (Ubuntu 22.04 has 2.35). The same randomness: the kernel's getrandom().
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

extern "C" uint32_t arc4random(void) noexcept {
  uint32_t value = 0;
  auto* out = reinterpret_cast<unsigned char*>(&value);
  size_t got = 0;
  while (got < sizeof value) {
    ssize_t n = ::getrandom(out + got, sizeof value - got, 0);
    if (n > 0) {
      got += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      break;
    }
  }
  if (got == sizeof value) return value;
  // getrandom unavailable (seccomp, very old kernels): the device instead.
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = ::read(fd, &value, sizeof value);
    ::close(fd);
    if (n == static_cast<ssize_t>(sizeof value)) return value;
  }
  std::abort();  // arc4random cannot fail; neither may this
}
