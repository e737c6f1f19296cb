// Build: g++ -O2 -std=c++17 -I include -I .deps/install/openmp/include tree_contraction_model.cpp -L build/openmp/src -lhinesbatch -L .deps/install/openmp/lib -lkokkoscore -fopenmp -ldl
// A model, not a kernel: greedy rake/compress rounds (an independent set of nodes with at most one live child eliminated per round, two team barriers per round forward and one back, 32 lanes balanced, a compress step costed 1.5 rake steps) against CellLanePlan's critical path of the same tree, in node steps (both sweeps).
#include <cstdio>
#include <cmath>
#include <dirent.h>
#include <string>
#include <vector>
#include <algorithm>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/cell_lane_plan.hpp"
using namespace hinesbatch;
// Greedy rake/compress rounds: eliminated set independent, nodes with <= 1 live child, root last.
void show(const char* name, const std::vector<int>& p0, int lanes) {
  int n = p0.size();
  std::vector<int> par(p0), nkids(n,0), onechild(n,-1); std::vector<char> alive(n,1);
  std::vector<std::vector<int>> kids(n);
  for (int i=1;i<n;++i){ kids[p0[i]].push_back(i);} 
  int rounds=0; double crit_fwd=0, crit_back=0; int left=n;
  auto livekids=[&](int v){int c=0,last=-1; for(int k:kids[v]) if(alive[k]){++c;last=k;} return std::make_pair(c,last);};
  while (left>1) {
    std::vector<char> mark(n,0); std::vector<int> S; int ncomp=0;
    // priority: leaves first (rake), then chain nodes, by decreasing index
    for (int pass=0; pass<2; ++pass)
    for (int v=n-1; v>0; --v) { if(!alive[v]||mark[v]) continue; auto [c,ch]=livekids(v); if (c>1) continue; if (pass==0 && c!=0) continue; if(pass==1&&c!=1) continue;
      if (mark[par[v]]==2 || (ch>=0 && mark[ch]==2)) continue; // neighbour eliminated
      S.push_back(v); mark[v]=2; if(!mark[par[v]]) mark[par[v]]=1; if(ch>=0 && !mark[ch]) mark[ch]=1; if(c==1) ++ncomp; }
    // apply
    std::vector<int> gathers(n,0);
    for (int v: S){ auto [c,ch]=livekids(v); gathers[par[v]]++; if(ch>=0){ // reparent ch to par[v]
        kids[par[v]].push_back(ch); par[ch]=par[v]; }
      }
    for (int v: S){ alive[v]=0; }
    // cleanup kids lists lazily (alive filter), left
    left -= S.size(); ++rounds;
    int ng=0; for(int i=0;i<n;++i) if(gathers[i]) ng+=gathers[i];
    double e = (S.size()+ncomp*0.5)/lanes; // balanced
    crit_fwd += std::ceil(e) + std::ceil((double)ng/lanes) + 2*4;
    crit_back += std::ceil((double)S.size()/lanes) + 4;
  }
  auto plan = CellLanePlan::build(p0, lanes);
  printf("%-32s n=%5d  old crit/sweep=%4d (x2=%4d)  contraction rounds=%3d fwd=%5.0f back=%5.0f total=%5.0f\n", name, n, plan.critical_path(), 2*plan.critical_path(), rounds, crit_fwd, crit_back, crit_fwd+crit_back);
}
int main() {
  std::string dir = "/work/shared/morphologies";
  DIR* d = opendir(dir.c_str()); std::vector<std::string> names;
  while (dirent* e = readdir(d)) { std::string s = e->d_name; if (s.size()>4 && s.substr(s.size()-4)==".swc") names.push_back(s);} 
  std::sort(names.begin(), names.end());
  for (auto& s : names) { auto t = read_swc(dir + "/" + s).tree(); show(s.c_str(), t.parents(), 32); }
  show("random_tree(512,1000,0.1)", random_tree(512, 1000, 0.1).parents(),32);
  show("random_tree(512,1000,0.5)", random_tree(512, 1000, 0.5).parents(),32);
  show("p2_binary_tree(4)", p2_binary_tree(4).parents(),32);
}
