#pragma once
// Errors HinesBatch reports. Bad input never yields a silent wrong answer: readers
// and solvers throw one of these, with the file, line and offending value when known.
#include <stdexcept>
#include <string>

namespace hinesbatch {

// Input that cannot be accepted (a malformed SWC file, a tree with a cycle, sizes that
// do not match). what() reads "file:line: message (value 'v')" where those are known.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& message, std::string file = {}, long line = 0,
             std::string value = {})
      : std::runtime_error(format(message, file, line, value)),
        file_(std::move(file)),
        line_(line),
        value_(std::move(value)) {}

  const std::string& file() const { return file_; }
  long line() const { return line_; }
  const std::string& value() const { return value_; }

 private:
  static std::string format(const std::string& message, const std::string& file, long line,
                            const std::string& value) {
    std::string s;
    if (!file.empty())
      s += shown_file(file) + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
    else if (line > 0)
      s += "line " + std::to_string(line) + ": ";
    s += message;
    if (!value.empty()) s += " (value '" + echoed(value) + "')";
    return s;
  }
  // A bad value is echoed at most kMaxEchoedValue characters long (a 200 MB token must not
  // flood stderr); the full value stays in value().
  static constexpr std::size_t kMaxEchoedValue = 64;
  // A file name (user input too) is shown at most kMaxShownFile characters long: its start
  // and its end, which name the folder and the file.
  static constexpr std::size_t kMaxShownFile = 200;
  static std::string shown_file(const std::string& f) {
    if (f.size() <= kMaxShownFile) return f;
    return f.substr(0, 120) + "...(" + std::to_string(f.size()) + " characters)..." +
           f.substr(f.size() - 50);
  }
  static std::string echoed(const std::string& v) {
    if (v.size() <= kMaxEchoedValue) return v;
    return v.substr(0, kMaxEchoedValue) + "... (" + std::to_string(v.size()) + " characters)";
  }
  std::string file_;
  long line_;
  std::string value_;
};

// A system the solver cannot solve as given (a zero pivot, a non-finite coefficient).
// system() and node() locate the failure where the solver knows it (the system, cell or
// gid, and the node or row within it), -1 otherwise; bindings (Python) hand them on.
class SolverError : public std::runtime_error {
 public:
  explicit SolverError(const std::string& message, long long system = -1, long long node = -1)
      : std::runtime_error(message), system_(system), node_(node) {}

  long long system() const { return system_; }
  long long node() const { return node_; }

 private:
  long long system_, node_;
};

}  // namespace hinesbatch
