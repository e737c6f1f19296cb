#pragma once
// How hinesbatch-sim (and export_model) write outputs so that they never lose data (issue #12):
//  - every output path is checked before the run: not an input (config or morphology,
//    compared by device and inode, so ./a.json and a.json are the same file), not another
//    output, and its folder writable (the temporary file is created right away);
//  - a stale file of the same name is removed before the run, so a failed run never
//    leaves the previous run's output looking current;
//  - the data go to "<path>.tmp.<pid>" in the same folder, every write and the close are
//    checked, and the file is renamed onto <path> only when complete;
//  - a path that exists and is not a regular file (/dev/stdout, /dev/full, a FIFO), or is a
//    symbolic link (renaming onto it would replace the link), is written in place, still
//    with every write and the close checked.
// Failures are InputErrors naming the file and the system's reason (exit 2).
#include <cstdio>
#include <string>
#include <vector>

namespace hinesbatch {

class OutputFile {
 public:
  // what: "spikes file", "traces file", ... for messages.
  OutputFile(std::string path, std::string what);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes the temporary file unless commit() succeeded

  // printf into the file; a failed write is remembered and reported by commit().
  void printf(const char* format, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
      ;
  void write(const std::string& s);
  // Flushes, closes and renames onto the final path; throws InputError on any failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& action, int err);
  std::string path_, what_, temporary_;
  std::FILE* file_ = nullptr;
  int first_error_ = 0;
  bool committed_ = false;
};

// Throws InputError if an output (non-empty entries of `outputs`) is one of `inputs` or
// names the same file as another output. Compares existing files by device and inode and
// others by their absolute, lexically normalised paths.
void check_outputs_are_not_inputs(const std::vector<std::string>& outputs,
                                  const std::vector<std::string>& inputs,
                                  const std::string& config);

}  // namespace hinesbatch
