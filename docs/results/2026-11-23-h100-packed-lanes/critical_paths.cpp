// Build: g++ -O2 -std=c++17 -I include -I .deps/install/openmp/include critical_paths.cpp -L build/openmp/src -lhinesbatch -L .deps/install/openmp/lib -lkokkoscore -fopenmp -ldl
#include <cstdio>
#include <dirent.h>
#include <string>
#include <vector>
#include <algorithm>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/cell_lane_plan.hpp"
using namespace hinesbatch;
void show(const char* name, const std::vector<int>& p) {
  auto plan = CellLanePlan::build(p, 32);
  int n = p.size();
  // longest chain
  std::vector<int> kids(n,0); for (int i=1;i<n;++i) kids[p[i]]++;
  int longest=0, cur=0; std::vector<int> run(n,0);
  for (int i=1;i<n;++i){ run[i] = (kids[p[i]]==1 ? run[p[i]]+1 : 1); longest=std::max(longest,run[i]); }
  printf("%-40s n=%5d levels=%2d critical=%5d (n/32=%d) longest chain=%d\n", name, n, plan.levels, plan.critical_path(), n/32, longest);
}
int main() {
  std::string dir = "/work/shared/morphologies";
  DIR* d = opendir(dir.c_str()); std::vector<std::string> names;
  while (dirent* e = readdir(d)) { std::string s = e->d_name; if (s.size()>4 && s.substr(s.size()-4)==".swc") names.push_back(s);} 
  std::sort(names.begin(), names.end());
  for (auto& s : names) { auto t = read_swc(dir + "/" + s).tree(); show(s.c_str(), t.parents()); }
  show("random_tree(512,1000,0.1)", random_tree(512, 1000, 0.1).parents());
  show("random_tree(512,1000,0.5)", random_tree(512, 1000, 0.5).parents());
  show("p2_binary_tree(4)", p2_binary_tree(4).parents());
}
