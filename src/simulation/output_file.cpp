#include "hinesbatch/simulation/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace fs = std::filesystem;

namespace {

bool is_special(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

// A symbolic link (/dev/stdout while stdout is a regular file) is written through in place:
// renaming a temporary file onto it would replace the link itself.
bool is_link(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw InputError("empty path for the " + what_);
  if (is_special(path_) || is_link(path_)) {
    struct stat st;
    if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw InputError("the " + what_ + " is a folder", path_);
    file_ = std::fopen(path_.c_str(), "w");
    if (!file_) fail("cannot open", errno);
    return;
  }
  temporary_ = path_ + ".tmp." + std::to_string(::getpid());
  file_ = std::fopen(temporary_.c_str(), "w");
  if (!file_) fail("cannot create a file in the folder of", errno);
  // A stale output of the same name must not look like this run's result if it fails.
  if (std::remove(path_.c_str()) != 0 && errno != ENOENT) fail("cannot remove the old", errno);
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void OutputFile::printf(const char* format, ...) {
  if (!file_ || first_error_) return;
  va_list args;
  va_start(args, format);
  const int n = std::vfprintf(file_, format, args);
  va_end(args);
  if (n < 0) first_error_ = errno ? errno : EIO;
}

void OutputFile::write(const std::string& s) {
  if (!file_ || first_error_) return;
  if (std::fwrite(s.data(), 1, s.size(), file_) != s.size()) first_error_ = errno ? errno : EIO;
}

void OutputFile::commit() {
  if (first_error_) fail("cannot write", first_error_);
  errno = 0;
  if (std::fflush(file_) != 0 || std::ferror(file_)) fail("cannot write", errno ? errno : EIO);
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0) fail("cannot close", errno ? errno : EIO);
  if (!temporary_.empty() && std::rename(temporary_.c_str(), path_.c_str()) != 0)
    fail("cannot rename the temporary file onto", errno);
  committed_ = true;
}

void OutputFile::fail(const std::string& action, int err) {
  throw InputError(action + " the " + what_ + ": " + std::strerror(err), path_);
}

void check_outputs_are_not_inputs(const std::vector<std::string>& outputs,
                                  const std::vector<std::string>& inputs,
                                  const std::string& config) {
  // Identity of a path: (device, inode) when it exists, else its normalised absolute path.
  auto same = [](const std::string& a, const std::string& b) {
    struct stat sa, sb;
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
      return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
    std::error_code ec;
    const fs::path pa = fs::absolute(a, ec).lexically_normal();
    const fs::path pb = fs::absolute(b, ec).lexically_normal();
    return pa == pb;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    for (const std::string& in : inputs)
      if (same(outputs[i], in))
        throw InputError("output path is an input of the run (it would be overwritten)", config, 0,
                         outputs[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].empty() && same(outputs[i], outputs[j]) && !is_special(outputs[i]))
        throw InputError("two outputs name the same file", config, 0, outputs[i]);
  }
}

}  // namespace hinesbatch
