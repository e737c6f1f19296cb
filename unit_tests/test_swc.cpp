// SWC reader: the real NeuroMorpho files beside the project, and malformed input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "shared_data.hpp"

namespace hb = hinesbatch;

namespace {

const std::string kMorphologyDir = hinesbatch::test::morphology_dir();

bool morphology_dir_present() { return std::ifstream(kMorphologyDir + "/README.md").good(); }

hb::SwcMorphology parse(const std::string& text, const hb::SwcOptions& options = {}) {
  std::istringstream in(text);
  return hb::parse_swc(in, "test.swc", options);
}

// The error must name the file, the line and the offending value.
void expect_error(const std::string& text, long line, const std::string& value,
                  const std::string& also = {}) {
  try {
    parse(text);
    ADD_FAILURE() << "no InputError for:\n" << text;
  } catch (const hb::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("test.swc:" + std::to_string(line) + ":"), std::string::npos) << what;
    EXPECT_NE(what.find("'" + value + "'"), std::string::npos) << what;
    if (!also.empty()) {
      EXPECT_NE(what.find(also), std::string::npos) << what;
    }
    EXPECT_EQ(e.file(), "test.swc");
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.value(), value);
  }
}

void expect_consistent(const hb::SwcMorphology& m) {
  ASSERT_EQ(m.points.size(), m.parent.size());
  ASSERT_FALSE(m.points.empty());
  EXPECT_EQ(m.parent[0], -1);
  EXPECT_EQ(m.points[0].parent_id, -1);
  for (std::size_t k = 1; k < m.points.size(); ++k) {
    ASSERT_GE(m.parent[k], 0);
    ASSERT_LT(m.parent[k], static_cast<int>(k));
    EXPECT_EQ(m.points[m.parent[k]].id, m.points[k].parent_id);
  }
  EXPECT_EQ(m.tree().size(), m.size());
}

struct TableRow {
  const char* file;
  int points, soma_points, branch_points, sections, depth;
};

// shared/morphologies/README.md
const TableRow kTable[] = {
    {"96ML.CNG.swc", 135, 1, 19, 41, 7},
    {"mp_ma_40984_gc2.CNG.swc", 353, 1, 14, 28, 7},
    {"1220882a.CNG.swc", 459, 1, 16, 33, 6},
    {"CT12T2.CNG.swc", 468, 0, 50, 100, 15},
    {"v_e_moto1.CNG.swc", 562, 3, 123, 256, 10},
    {"cnic_004.CNG.swc", 941, 1, 36, 75, 10},
    {"HSN-fluoro02.CNG.swc", 998, 3, 181, 365, 35},
    {"951118a.CNG.swc", 1348, 1, 10, 23, 4},
    {"v_e_purk2.CNG.swc", 1521, 1, 419, 839, 25},
    {"l22.CNG.swc", 1602, 10, 49, 99, 7},
    {"AKO60sdax2lay.CNG.swc", 2281, 1, 95, 193, 18},
    {"10-2012-02-09-001.CNG.swc", 3187, 17, 392, 784, 26},
};

}  // namespace

TEST(SwcFiles, CountsMatchReadmeTable) {
  if (!morphology_dir_present()) GTEST_SKIP() << "no morphologies at " << kMorphologyDir;
  for (const TableRow& row : kTable) {
    SCOPED_TRACE(row.file);
    const hb::SwcMorphology m = hb::read_swc(kMorphologyDir + "/" + row.file);
    expect_consistent(m);
    EXPECT_EQ(m.source, kMorphologyDir + "/" + row.file);
    EXPECT_EQ(m.size(), row.points);
    EXPECT_EQ(m.soma_point_count(), row.soma_points);
    EXPECT_EQ(m.branch_point_count(), row.branch_points);
    EXPECT_EQ(m.section_count(), row.sections);
    EXPECT_EQ(m.depth(), row.depth);
  }
}

TEST(SwcFiles, MissingFileIsAnInputError) {
  EXPECT_THROW(hb::read_swc("/nonexistent/dir/cell.swc"), hb::InputError);
}

TEST(SwcParse, CommentsCrlfTabsAndExtraColumns) {
  const auto m = parse(
      "\xEF\xBB\xBF# header comment\r\n"
      "\r\n"
      "   # indented comment\r\n"
      "1\t1  0 0 0 5.0 -1   extra columns 1 2\r\n"
      "  2 3 10 0 0 1.0 1 # trailing comment \r\n"
      "3 3 20 0 0 1.0 2\t\r\n"
      "\t\r\n");
  expect_consistent(m);
  ASSERT_EQ(m.size(), 3);
  EXPECT_EQ(m.points[1].x, 10.0);
  EXPECT_EQ(m.points[2].line, 6);
  EXPECT_EQ(m.soma_point_count(), 1);
}

// Old Mac and some exporters end lines with a lone CR: every point must still be read
// (getline on LF took all but the first as extra columns: 3 nodes instead of 85).
TEST(SwcParse, CrOnlyAndMixedLineEnds) {
  const auto cr = parse("# c\r1 1 0 0 0 5 -1\r2 3 10 0 0 1 1\r3 3 20 0 0 1 2\r");
  expect_consistent(cr);
  ASSERT_EQ(cr.size(), 3);
  EXPECT_EQ(cr.points[2].line, 4);
  const auto mixed = parse("1 1 0 0 0 5 -1\r\n2 3 10 0 0 1 1\r3 3 20 0 0 1 2\n4 3 30 0 0 1 3");
  expect_consistent(mixed);
  ASSERT_EQ(mixed.size(), 4);
  EXPECT_EQ(mixed.points[3].line, 4);
  EXPECT_EQ(mixed.points[3].x, 30.0);
}

TEST(SwcFiles, CrOnlyCopyOfARealFileHasEveryPoint) {
  if (!morphology_dir_present()) GTEST_SKIP() << "no morphologies at " << kMorphologyDir;
  std::ifstream in(kMorphologyDir + "/96ML.CNG.swc", std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  const auto lf = parse(text);
  for (char& c : text)
    if (c == '\n') c = '\r';
  const auto cr = parse(text);
  ASSERT_EQ(cr.size(), lf.size());
  EXPECT_EQ(cr.size(), 135);
  EXPECT_EQ(cr.parent, lf.parent);
}

TEST(SwcParse, UnsortedNonContiguousIds) {
  // Children listed before parents, ids with gaps, any negative parent is a root.
  const auto m = parse(
      "30 3 3 0 0 1 20\n"
      "20 3 2 0 0 1 10\n"
      "40 3 2 1 0 1 20\n"
      "10 1 0 0 0 4 -7\n"
      "15 3 -1 0 0 1 10\n");
  expect_consistent(m);
  ASSERT_EQ(m.size(), 5);
  EXPECT_EQ(m.points[0].id, 10);
  EXPECT_EQ(m.points[0].line, 4);
  EXPECT_EQ(m.branch_point_count(), 2);  // 10 and 20
  // Children keep file order: 20 before 15, 30 before 40; sections stay contiguous.
  std::vector<long> ids;
  for (const auto& p : m.points) ids.push_back(p.id);
  EXPECT_EQ(ids, (std::vector<long>{10, 20, 30, 40, 15}));
}

TEST(SwcParse, IntegralDecimalsAccepted) {
  const auto m = parse("1.0 1 0 0 0 1 -1.0\n2 3.0 1e1 0 0 1 1.\n");
  ASSERT_EQ(m.size(), 2);
  EXPECT_EQ(m.points[1].type, 3);
  EXPECT_EQ(m.points[1].x, 10.0);
}

TEST(SwcParse, ThreePointSoma) {
  const auto m = parse(
      "1 1 0 0 0 10 -1\n"
      "2 1 0 -10 0 10 1\n"
      "3 1 0 10 0 10 1\n"
      "4 3 10 0 0 1 1\n"
      "5 3 20 0 0 1 4\n");
  expect_consistent(m);
  EXPECT_EQ(m.soma_point_count(), 3);
  EXPECT_EQ(m.branch_point_count(), 1);
  EXPECT_EQ(m.section_count(), 3);  // two soma halves + the dendrite
  EXPECT_EQ(m.depth(), 1);
}

TEST(SwcParse, BranchedNonContiguousSoma) {
  const auto m = parse(
      "1 1 0 0 0 5 -1\n"
      "2 1 1 0 0 5 1\n"
      "3 3 5 0 0 1 2\n"
      "4 3 6 1 0 1 3\n"
      "5 3 6 -1 0 1 3\n"
      "9 1 -1 0 0 5 1\n"
      "10 3 -5 0 0 1 9\n");
  expect_consistent(m);
  EXPECT_EQ(m.soma_point_count(), 3);
  EXPECT_EQ(m.branch_point_count(), 2);  // soma point 1 and dendrite point 3
  EXPECT_EQ(m.section_count(), 4);
  EXPECT_EQ(m.depth(), 2);  // only the dendritic branch point raises the order
}

TEST(SwcParse, ZeroRadiiAndNoSoma) {
  const auto m = parse(
      "1 2 0 0 0 0 -1\n"
      "2 2 1 0 0 0 1\n"
      "3 2 2 0 0 0.5 1\n"
      "4 2 3 0 0 0 3\n");
  expect_consistent(m);
  EXPECT_EQ(m.soma_point_count(), 0);
  EXPECT_EQ(m.points[1].radius, 0.0);
  EXPECT_EQ(m.branch_point_count(), 1);
  EXPECT_EQ(m.section_count(), 2);
  EXPECT_EQ(m.depth(), 2);  // a branching non-soma root raises the order
}

TEST(SwcParse, SinglePoint) {
  const auto m = parse("1 1 0 0 0 3 -1\n");
  ASSERT_EQ(m.size(), 1);
  EXPECT_EQ(m.section_count(), 0);
  EXPECT_EQ(m.depth(), 1);
  EXPECT_EQ(m.branch_point_count(), 0);
}

TEST(SwcParse, KeepLargestComponent) {
  const std::string text =
      "1 1 0 0 0 1 -1\n"
      "2 3 1 0 0 1 1\n"
      "3 3 9 9 9 1 -1\n"
      "4 3 9 9 8 1 3\n"
      "5 3 9 9 7 1 4\n";
  expect_error(text, 3, "3", "2 roots");
  hb::SwcOptions keep;
  keep.keep_largest_component = true;
  const auto m = parse(text, keep);
  expect_consistent(m);
  ASSERT_EQ(m.size(), 3);
  EXPECT_EQ(m.points[0].id, 3);
  EXPECT_EQ(m.points[2].id, 5);
}

TEST(SwcErrors, TooFewFields) {
  expect_error("1 1 0 0 0 1 -1\n2 3 1 0 0 1\n", 2, "2 3 1 0 0 1", "7 fields");
}

TEST(SwcErrors, NotANumber) {
  expect_error("1 1 0 0 0 1 -1\n2 3 1.5abc 0 0 1 1\n", 2, "1.5abc");
  expect_error("1 1 0 0 0 1 -1\n\n2 3 1 x 0 1 1\n", 3, "x");
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 nan 1 1\n", 2, "nan");
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 inf 1\n", 2, "inf");
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 -INF 1\n", 2, "-INF");
  expect_error("1 1 0 0 0 1 -1\n2 3 1e999 0 0 1 1\n", 2, "1e999");
  expect_error("1 1 0 0 0 1 -1\n2 3 0x10 0 0 1 1\n", 2, "0x10");
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 one\n", 2, "one");
}

TEST(SwcErrors, NegativeRadius) { expect_error("1 1 0 0 0 -0.5 -1\n", 1, "-0.5", "radius"); }

TEST(SwcErrors, NonIntegerColumns) {
  expect_error("1 1 0 0 0 1 -1\n2.5 3 0 0 0 1 1\n", 2, "2.5", "integer");
  expect_error("1 1 0 0 0 1 -1\n2 3.5 0 0 0 1 1\n", 2, "3.5", "integer");
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 1.5\n", 2, "1.5", "integer");
  expect_error("-3 1 0 0 0 1 -1\n", 1, "-3", "negative");
}

TEST(SwcErrors, DuplicateIdNamesBothLines) {
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 1\n# c\n2 3 1 0 0 1 1\n", 4, "2", "line 2");
}

TEST(SwcErrors, MissingParent) {
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 1\n3 3 0 0 0 1 9\n", 3, "9", "does not exist");
}

TEST(SwcErrors, Cycle) {
  // 2 -> 3 -> 4 -> 2 beside a proper root: reported at the cycle's first line.
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 4\n3 3 0 0 0 1 2\n4 3 0 0 0 1 3\n", 2, "4", "cycle");
  // Every point has a parent: no root at all.
  expect_error("1 3 0 0 0 1 2\n2 3 0 0 0 1 1\n", 1, "2", "cycle");
  expect_error("1 1 0 0 0 1 -1\n5 3 0 0 0 1 5\n", 2, "5", "cycle");
}

TEST(SwcErrors, SeveralRoots) {
  expect_error("1 1 0 0 0 1 -1\n2 3 0 0 0 1 1\n7 3 0 0 0 1 -1\n", 3, "7", "roots");
}

TEST(SwcErrors, SeveralPointsOnOneLine) {
  const std::string two = "1 1 0 0 0 5 -1 2 3 10 0 0 1 1";
  expect_error("# x\n" + two + "\n", 2, two, "several points on one line");
}

TEST(SwcErrors, AbsurdGeometryNamedWithLine) {
  expect_error("1 1 0 0 0 5 -1\n2 3 1e200 0 0 1 1\n", 2, "1e200", "coordinate");
  expect_error("1 1 0 0 0 5 -1\n2 3 0 0 -2e9 1 1\n", 2, "-2e9", "coordinate");
  expect_error("1 1 0 0 0 5e7 -1\n", 1, "5e7", "radius");
}

// A huge bad token is echoed truncated (at most 64 characters) but kept whole in value().
TEST(SwcErrors, HugeBadValueIsEchoedTruncated) {
  const std::string token = "1" + std::string(1 << 20, 'x');
  try {
    parse("1 1 0 0 0 " + token + " -1\n");
    ADD_FAILURE() << "no InputError";
  } catch (const hb::InputError& e) {
    EXPECT_EQ(e.value(), token);
    EXPECT_LT(std::string(e.what()).size(), 200u);
    EXPECT_NE(std::string(e.what()).find("characters)"), std::string::npos) << e.what();
  }
}

TEST(SwcErrors, EmptyFile) {
  for (const char* text : {"", "\n\n", "# only a comment\r\n   \r\n"}) {
    try {
      parse(text);
      ADD_FAILURE() << "no InputError";
    } catch (const hb::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("test.swc"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("no points"), std::string::npos);
    }
  }
}
