// The library's side of the second hardening round (no hang, no crash, no lost output, no
// silent wrong result), as a Python caller or another program meets it: the config parser's
// depth and duplicate-key refusals, the physical ranges, the metrics JSON writer, and
// output files that never lose an earlier file. hinesbatch-sim's own cases are in
// tools/hinesbatch-sim/tests (docs/HARDENING.md).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch::test {
namespace {

std::string config_error(const std::string& text) {
  try {
    parse_simulation_config(text, "cfg", "");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string kCell = R"("cell": {"morphology": "synthetic:ball-and-stick"})";

TEST(ConfigHardening, DeepNestingIsRefusedByName) {
  const std::string deep =
      "{" + kCell + ", \"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(config_error(deep),
            "cfg:1: invalid JSON: arrays and objects nested deeper than 64 levels");
  // 64 levels are fine (the value is then refused as an unknown key, named).
  const std::string ok =
      "{" + kCell + ", \"x\": " + std::string(63, '[') + std::string(63, ']') + "}";
  EXPECT_NE(config_error(ok).find("config key 'x': unknown key"), std::string::npos);
}

TEST(ConfigHardening, DuplicateKeysAreRefusedByName) {
  EXPECT_EQ(config_error("{\"tstop\": 1,\n \"tstop\": 2, " + kCell + "}"),
            "cfg:2: config key 'tstop': given twice in one object (the second would silently "
            "replace the first)");
  EXPECT_NE(config_error("{" + kCell + R"(, "network": {"type": "ring", "cells": 2, "cells": 3}})")
                .find("config key 'network.cells': given twice"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"cell": {"morphology": "synthetic:ball-and-stick",
      "mechanisms": [{"name": "pas", "g": 1e-3, "g": 2e-3}]}})")
                .find("config key 'cell.mechanisms[].g': given twice"),
            std::string::npos);
  // The same key in two objects is no duplicate.
  EXPECT_EQ(config_error(R"({"tstop": 1, "cell": {"morphology": "synthetic:ball-and-stick",
      "mechanisms": [{"name": "pas"}, {"name": "hh"}]}})"),
            "(accepted)");
}

TEST(ConfigHardening, PhysicalRangesAndWholeSteps) {
  EXPECT_EQ(config_error("{\"celsius\": -300, " + kCell + "}"),
            "cfg: config key 'celsius': must lie in [-273.15, 100] (value '-300')");
  EXPECT_EQ(config_error("{\"v_init\": 1e5, " + kCell + "}"),
            "cfg: config key 'v_init': must lie in [-1000, 1000] (value '100000.0')");
  EXPECT_EQ(config_error("{\"tstop\": 1.0125, " + kCell + "}"),
            "cfg: config key 'tstop': is not a whole number of steps of dt = 0.025 ms (tstop / "
            "dt = 40.5; the run would stop at 1 ms) (value '1.0125')");
  EXPECT_EQ(config_error("{\"tstop\": 1, " + kCell + "}"), "(accepted)");  // 40.000000000000007
  std::string nul = "{\"tstop\": 1, " + kCell + "}\n";
  nul.push_back('\0');
  nul += "{\"tstop\": 5}";
  EXPECT_EQ(config_error(nul),
            "cfg:2: config holds a NUL byte (a binary or damaged file; nothing after it would be "
            "read)");
}

TEST(ConfigHardening, RegionThatMatchesNoSectionIsRefused) {
  EXPECT_EQ(config_error(R"({"tstop": 1, "cell": {"morphology": "synthetic:ball-and-stick",
      "mechanisms": [{"name": "pas"}, {"name": "hh", "region": "axon"}]}})"),
            "cfg: config key 'cell.mechanisms[1].region': matches no section of "
            "synthetic:ball-and-stick (it has no section of that SWC type): the mechanism would "
            "be inserted nowhere (value '\"axon\"')");
}

TEST(ConfigHardening, SynapsesPerCellAboveCellsIsRefusedWhenGiven) {
  const std::string net = R"(, "network": {"type": "random", "cells": 10)";
  EXPECT_NE(config_error("{\"tstop\": 1, " + kCell + net + ", \"synapses_per_cell\": 10}}")
                .find("config key 'network.synapses_per_cell': is more than network.cells - 1 = 9"),
            std::string::npos);
  EXPECT_EQ(config_error("{\"tstop\": 1, " + kCell + net + ", \"synapses_per_cell\": 9}}"),
            "(accepted)");
  EXPECT_EQ(config_error("{\"tstop\": 1, " + kCell + net + "}}"), "(accepted)");  // default 500
}

TEST(MetricsJson, AnyConfigPathGivesValidJson) {
  SimulationResult r;
  r.backend = "OpenMP";
  const std::string path = std::string("a\"b\\c\n") + std::string(5000, 'x') + "\xff";
  const std::string text = metrics_json(r, path);
  EXPECT_EQ(text.front(), '{');
  EXPECT_NE(text.find("\"config\": \"a\\\"b\\\\c\\n"), std::string::npos);
  EXPECT_GT(text.size(), 5000u);
  EXPECT_NE(text.find("\"wall_s_per_simulated_s\": null"), std::string::npos);  // 0 / 0
}

struct Folder {
  std::string dir;
  Folder() {
    char tmpl[] = "/tmp/hinesbatch-hardening-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~Folder() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string operator/(const std::string& name) const { return dir + "/" + name; }
  int entries() const {
    int n = 0;
    std::FILE* p = popen(("ls -A '" + dir + "' | wc -l").c_str(), "r");
    if (p && std::fscanf(p, "%d", &n) != 1) n = -1;
    if (p) pclose(p);
    return n;
  }
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFileHardening, EarlierFileStaysUntilCommit) {
  Folder f;
  const std::string out = f / "spikes.txt";
  std::ofstream(out) << "earlier\n";
  {
    OutputFile o(out, "spikes file");
    EXPECT_EQ(read(out), "earlier\n");  // not removed up front
    EXPECT_EQ(f.entries(), 1);          // no temporary before the first write
    o.write("0 1.0\n");
    EXPECT_EQ(f.entries(), 2);  // the temporary .hb-XXXXXX
    EXPECT_EQ(read(out), "earlier\n");
  }  // destroyed without commit: a failed run
  EXPECT_EQ(read(out), "earlier\n");
  EXPECT_EQ(f.entries(), 1);
  {
    OutputFile o(out, "spikes file");
    o.write("0 1.0\n");
    o.commit();
  }
  EXPECT_EQ(read(out), "0 1.0\n");
  EXPECT_EQ(f.entries(), 1);
}

TEST(OutputFileHardening, WriteProtectedFileIsRefused) {
  Folder f;
  const std::string out = f / "ro.txt";
  std::ofstream(out) << "kept\n";
  ASSERT_EQ(chmod(out.c_str(), 0444), 0);
  try {
    OutputFile o(out, "traces file");
    FAIL() << "a write-protected file was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the traces file exists and is write-protected (mode "
                                         "0444): it is not replaced"),
              std::string::npos);
  }
  EXPECT_EQ(read(out), "kept\n");
}

TEST(OutputFileHardening, DanglingLinkAndItsTargetAreOneFile) {
  Folder f;
  ASSERT_EQ(symlink("target.txt", (f / "link.txt").c_str()), 0);
  EXPECT_THROW(check_outputs_are_not_inputs({f / "link.txt", f / "target.txt"}, {}, "cfg"),
               InputError);
  EXPECT_THROW(check_outputs_are_not_inputs({f / "link.txt"}, {f / "./target.txt"}, "cfg"),
               InputError);
  EXPECT_NO_THROW(check_outputs_are_not_inputs({f / "link.txt", f / "other.txt"}, {}, "cfg"));
}

}  // namespace
}  // namespace hinesbatch::test
