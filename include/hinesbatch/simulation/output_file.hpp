#pragma once
// How hinesbatch-sim (and export_model) write outputs so that they never lose data:
//  - every output path is checked before the run: not an input (config or morphology), not
//    another output (both compared by device and inode when the file exists, else by the
//    canonical folder and name, symbolic links followed even when their target does not
//    exist yet), not a write-protected file (its mode is respected, also for root), and its
//    folder writable (a probe file is created and removed right away);
//  - an earlier file of the same name is left as it is until the new one is complete: the
//    data go to a temporary ".hb-XXXXXX" (mkstemp) in the same folder, created only when
//    the results are written, every write and the close are checked, and the temporary is
//    renamed onto the path at the end (keeping the earlier file's mode). A failed or
//    interrupted run leaves the earlier file unchanged and no temporary;
//  - a symbolic link is followed to its final target, which is replaced the same way (the
//    link stays); a path that is not a regular file (/dev/stdout, /dev/full, a FIFO) or a
//    link into /dev or /proc is written in place, still with every write and the close
//    checked.
// Failures are InputErrors naming the file and the system's reason (exit 2).
// The temporaries of every OutputFile alive are registered so that a signal handler can
// remove them (remove_output_temporaries, async-signal-safe).
#include <cstdio>
#include <string>
#include <vector>

namespace hinesbatch {

class OutputFile {
 public:
  // what: "spikes file", "traces file", ... for messages. Checks the path (see above);
  // creates nothing that stays.
  OutputFile(std::string path, std::string what);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes the temporary file unless commit() succeeded

  // printf into the file (the temporary is created by the first write); a failed write is
  // remembered and reported by commit().
  void printf(const char* format, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
      ;
  void write(const std::string& s);
  // Hands what was written so far to the system (a file written as the run goes).
  void flush();
  // For a writer that opens the file itself (HDF5): refuses a path that is not a regular
  // file (it could not be renamed onto), creates the temporary (removed on failure and on
  // signals like any other) and returns its name; the writer closes it before commit().
  std::string temporary_for_writer();
  // Flushes, closes and renames onto the final path; throws InputError on any failure.
  void commit();
  const std::string& path() const { return path_; }
  bool committed() const { return committed_; }

 private:
  void open();
  [[noreturn]] void fail(const std::string& action, int err);
  std::string path_, what_;
  std::string target_;  // the file replaced: path_, or the final target of a link
  std::string temporary_;
  std::FILE* file_ = nullptr;
  bool in_place_ = false;
  bool external_ = false;  // written by another library through temporary_for_writer()
  int first_error_ = 0;
  bool committed_ = false;
  unsigned mode_ = 0644;     // of the file written (an earlier file's mode is kept)
  int slot_ = -1;            // in the signal handler's registry
  std::size_t planned_ = 0;  // in describe_outputs' list
};

// Throws InputError if an output (non-empty entries of `outputs`) is one of `inputs` or
// names the same file as another output. Existing files are compared by device and inode,
// others by canonical folder and name (links followed, dangling ones included).
void check_outputs_are_not_inputs(const std::vector<std::string>& outputs,
                                  const std::vector<std::string>& inputs,
                                  const std::string& config);

// For a signal handler (async-signal-safe: unlink and write only): removes the temporary of
// every OutputFile not yet committed and writes to `fd` one line naming the outputs that
// were written and those that were not (their earlier files left unchanged).
void remove_output_temporaries(int fd, const char* program);

// One line for an error message: the outputs of this process not written (earlier files of
// those names unchanged) and those written; empty when there were none.
std::string describe_outputs();

}  // namespace hinesbatch
