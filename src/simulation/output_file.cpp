#include "hinesbatch/simulation/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace fs = std::filesystem;

namespace {

// The registry a signal handler reads: plain arrays and sig_atomic_t states only.
constexpr int kSlots = 16;
constexpr std::size_t kShownName = 200;  // characters of a path shown in the signal message
enum SlotState : int { kFree = 0, kPending = 1, kTemporary = 2, kWritten = 3 };
struct Slot {
  volatile sig_atomic_t state = kFree;
  char temporary[PATH_MAX + 16] = {};
  char shown[kShownName + 64] = {};  // "spikes file 'x.txt'"
};
Slot g_slots[kSlots];

// What this process was asked to write, for describe_outputs (not used by signal handlers).
struct Planned {
  std::string shown;
  bool written = false;
};
std::vector<Planned> g_planned;

std::string shown_name(const std::string& what, const std::string& path) {
  const std::string p = path.size() <= kShownName ? path : path.substr(0, kShownName) + "...";
  return what + " '" + p + "'";
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string read_link(const std::string& path) {
  std::string buf(PATH_MAX, '\0');
  const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
  if (n <= 0) return {};
  buf.resize(static_cast<std::size_t>(n));
  return buf;
}

// The name a path finally stands for: symbolic links followed, a dangling one too (its
// target is where a write would go). system: a hop led into /dev or /proc (/dev/stdout).
std::string final_target(const std::string& path, bool& system) {
  std::string p = path;
  system = starts_with(p, "/dev/") || starts_with(p, "/proc/");
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string t = read_link(p);
    if (t.empty()) return p;
    if (t[0] != '/') {
      const auto slash = p.rfind('/');
      t = (slash == std::string::npos ? std::string() : p.substr(0, slash + 1)) + t;
    }
    if (starts_with(t, "/dev/") || starts_with(t, "/proc/")) system = true;
    p = t;
  }
  return p;  // a loop of links: opening it reports ELOOP
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Identity of a path for comparisons: device and inode of an existing file, else the
// canonical folder plus the name (so a dangling link and its future target compare equal).
struct Identity {
  std::string id;
  bool exists_regular = false, special = false;
};
Identity identity(const std::string& path) {
  bool system = false;
  const std::string t = final_target(path, system);
  struct stat st;
  if (::stat(t.c_str(), &st) == 0) {
    Identity i;
    i.id = "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    i.exists_regular = S_ISREG(st.st_mode);
    i.special = !S_ISREG(st.st_mode);
    return i;
  }
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(t), ec);
  if (ec) p = fs::path(t);
  fs::path parent = fs::weakly_canonical(p.parent_path(), ec);
  if (ec) parent = p.parent_path().lexically_normal();
  return {"path " + (parent / p.filename()).string(), false, false};
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw InputError("empty path for the " + what_);
  bool system = false;
  target_ = final_target(path_, system);
  struct stat st;
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw InputError("the " + what_ + " is a folder", path_);
  mode_t mode = 0;
  if (exists && !S_ISREG(st.st_mode)) {
    in_place_ = true;  // /dev/null, /dev/full, a FIFO, a terminal
  } else if (system) {
    in_place_ = true;  // /dev/stdout redirected to a file: the caller's file, in place
  } else if (exists) {
    // Renaming onto a file needs no write permission on it: respect its mode ourselves.
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(target_.c_str(), W_OK) != 0) {
      char m[16];
      std::snprintf(m, sizeof m, "%04o", static_cast<unsigned>(st.st_mode & 07777));
      throw InputError(
          "the " + what_ + " exists and is write-protected (mode " + m + "): it is not replaced",
          path_);
    }
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (in_place_) {
    // Opened now (a FIFO's reader, /dev/full's errors show up at once) and written in place.
    file_ = std::fopen(path_.c_str(), "w");
    if (!file_) fail("cannot open", errno);
  } else {
    // The folder must take a new file: a probe, removed at once (nothing stays if the run
    // is killed).
    std::string probe = folder_of(target_) + "/.hb-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) fail("cannot create a file in the folder of", errno);
    ::close(fd);
    ::unlink(probe.c_str());
  }
  mode_ = mode;
  for (int s = 0; s < kSlots; ++s)
    if (g_slots[s].state == kFree) {
      slot_ = s;
      std::snprintf(g_slots[s].shown, sizeof g_slots[s].shown, "%s",
                    shown_name(what_, path_).c_str());
      g_slots[s].state = kPending;
      break;
    }
  g_planned.push_back({shown_name(what_, path_), false});
  planned_ = g_planned.size() - 1;
}

void OutputFile::open() {
  if (file_ || first_error_) return;
  std::string temp = folder_of(target_) + "/.hb-XXXXXX";
  int fd = -1;
  if (slot_ >= 0 && temp.size() < sizeof g_slots[slot_].temporary) {
    // Registered before it exists: a signal in between unlinks a name that is not there.
    Slot& s = g_slots[slot_];
    std::memcpy(s.temporary, temp.c_str(), temp.size() + 1);
    s.state = kTemporary;
    fd = ::mkstemp(s.temporary);
    temp = s.temporary;
  } else {
    fd = ::mkstemp(temp.data());
  }
  if (fd < 0) fail("cannot create a temporary file in the folder of", errno);
  temporary_ = temp;
  if (::fchmod(fd, mode_) != 0) {
    const int err = errno;
    ::close(fd);
    fail("cannot set the mode of the temporary file of", err);
  }
  file_ = ::fdopen(fd, "w");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    fail("cannot open", err);
  }
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
  if (slot_ >= 0) g_slots[slot_].state = kFree;
}

void OutputFile::printf(const char* format, ...) {
  open();
  if (!file_ || first_error_) return;
  va_list args;
  va_start(args, format);
  const int n = std::vfprintf(file_, format, args);
  va_end(args);
  if (n < 0) first_error_ = errno ? errno : EIO;
}

void OutputFile::write(const std::string& s) {
  open();
  if (!file_ || first_error_) return;
  if (std::fwrite(s.data(), 1, s.size(), file_) != s.size()) first_error_ = errno ? errno : EIO;
}

void OutputFile::flush() {
  if (file_ && !first_error_ && std::fflush(file_) != 0) first_error_ = errno ? errno : EIO;
}

std::string OutputFile::temporary_for_writer() {
  if (in_place_)
    throw InputError(
        "the " + what_ + " must be a regular file (it is written to a temporary " + "and renamed)",
        path_);
  open();
  std::FILE* f = file_;
  file_ = nullptr;
  if (f && std::fclose(f) != 0) fail("cannot close", errno ? errno : EIO);
  external_ = true;
  return temporary_;
}

void OutputFile::commit() {
  if (!external_) {
    open();  // an empty output is still written
    if (first_error_) fail("cannot write", first_error_);
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail("cannot write", errno ? errno : EIO);
    std::FILE* f = file_;
    file_ = nullptr;
    if (std::fclose(f) != 0) fail("cannot close", errno ? errno : EIO);
  }
  if (!in_place_ && std::rename(temporary_.c_str(), target_.c_str()) != 0)
    fail("cannot rename the temporary file onto", errno);
  committed_ = true;
  if (slot_ >= 0) g_slots[slot_].state = kWritten;
  g_planned[planned_].written = true;
}

void OutputFile::fail(const std::string& action, int err) {
  throw InputError(action + " the " + what_ + ": " + std::strerror(err), path_);
}

void check_outputs_are_not_inputs(const std::vector<std::string>& outputs,
                                  const std::vector<std::string>& inputs,
                                  const std::string& config) {
  std::vector<Identity> in_ids, out_ids(outputs.size());
  for (const std::string& in : inputs)
    if (!in.empty()) in_ids.push_back(identity(in));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    out_ids[i] = identity(outputs[i]);
    for (const Identity& in : in_ids)
      if (in.id == out_ids[i].id && !in.special)
        throw InputError("output path is an input of the run (it would be overwritten)", config, 0,
                         outputs[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].empty() && out_ids[j].id == out_ids[i].id && !out_ids[i].special)
        throw InputError("two outputs name the same file", config, 0, outputs[i]);
  }
}

namespace {

void put(int fd, const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  while (n > 0) {
    const ssize_t w = ::write(fd, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

void remove_output_temporaries(int fd, const char* program) {
  bool any_pending = false, any_written = false;
  for (Slot& s : g_slots) {
    if (s.state == kTemporary) ::unlink(s.temporary);
    any_pending = any_pending || s.state == kPending || s.state == kTemporary;
    any_written = any_written || s.state == kWritten;
  }
  put(fd, program);
  if (!any_pending && !any_written) {
    put(fd, ": no output file was being written\n");
    return;
  }
  if (any_pending) {
    put(fd, ": not written: ");
    bool first = true;
    for (Slot& s : g_slots)
      if (s.state == kPending || s.state == kTemporary) {
        if (!first) put(fd, ", ");
        put(fd, s.shown);
        first = false;
      }
    put(fd, " (an earlier file of that name is left unchanged)");
  }
  if (any_written) {
    put(fd, any_pending ? "; written: " : ": written: ");
    bool first = true;
    for (Slot& s : g_slots)
      if (s.state == kWritten) {
        if (!first) put(fd, ", ");
        put(fd, s.shown);
        first = false;
      }
  }
  put(fd, "\n");
}

std::string describe_outputs() {
  std::string pending, written;
  for (const Planned& p : g_planned) {
    std::string& list = p.written ? written : pending;
    list += (list.empty() ? "" : ", ") + p.shown;
  }
  std::string s;
  if (!pending.empty())
    s += "not written: " + pending + " (an earlier file of that name is left unchanged)";
  if (!written.empty()) s += (s.empty() ? "written: " : "; written: ") + written;
  return s;
}

}  // namespace hinesbatch
