#pragma once
// Reading an input file whole, safely: only a regular file (a link to one is followed) of
// bounded size is read, so that /dev/zero, a FIFO or a folder given as a config or SWC file
// is refused by name instead of being read until memory runs out or failing with a stream
// error that names no file. Every failure is an InputError naming the file and the cause.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

// Limits on what is read whole (bytes). The largest SWC files of NeuroMorpho are a few
// tens of MB; configs, explicit networks included, stay far below these.
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t(256) << 20;
constexpr std::uint64_t kMaxSwcBytes = std::uint64_t(1) << 30;

// The contents of `path`; what: "config file", "SWC file" for messages.
inline std::string read_input_file(const std::string& path, const std::string& what,
                                   std::uint64_t max_bytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot open " + what + ": " + std::strerror(errno), path);
  if (S_ISDIR(st.st_mode)) throw InputError("is a directory, not a " + what, path);
  if (!S_ISREG(st.st_mode))
    throw InputError("is not a regular file (a device, FIFO or socket), not a " + what, path);
  auto too_big = [&](std::uint64_t size) {
    throw InputError(what + " is " + std::to_string(size) + " bytes, more than the limit of " +
                         std::to_string(max_bytes),
                     path);
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    too_big(static_cast<std::uint64_t>(st.st_size));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError("cannot open " + what + ": " + std::strerror(errno), path);
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw InputError("cannot read " + what + ": " + std::strerror(err), path);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {  // grew while being read
      ::close(fd);
      too_big(text.size());
    }
  }
  ::close(fd);
  return text;
}

}  // namespace hinesbatch
