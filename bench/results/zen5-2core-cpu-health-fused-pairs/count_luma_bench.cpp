// HistogramCounter::countLuma over every row of a 1080p plane, one core, against the plain
// four-table loop it replaces (count4, the code of 7c25fb0), median of 150 runs each. Built against
// a build tree:
//   c++ -O2 -std=c++20 -I. -Ibuild/default/include count_luma_bench.cpp
//   build/default/libesframe_*.a -lhwy ...
// and run from a folder holding pat_l.gray (the pattern frame's L) with the camera-like Y4M as
// argument.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>
#include "core/cpu/cpu_histogram.hpp"
using namespace esf;
const int W = 1920, H = 1080;
__attribute__((noinline)) void count4(const uint8_t* values, int n,
                                      std::array<std::array<uint32_t, 256>, 4>& l) {
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, values + i, 8);
    const uint64_t first = v & 0xff;
    if (v == first * 0x0101010101010101u) {
      l[0][first] += 8;
      continue;
    }
    ++l[0][first];
    ++l[1][(v >> 8) & 0xff];
    ++l[2][(v >> 16) & 0xff];
    ++l[3][(v >> 24) & 0xff];
    ++l[0][(v >> 32) & 0xff];
    ++l[1][(v >> 40) & 0xff];
    ++l[2][(v >> 48) & 0xff];
    ++l[3][v >> 56];
  }
  for (; i < n; ++i) ++l[0][values[i]];
}
int main(int argc, char** argv) {
  std::vector<uint8_t> cam(W * H), rnd(W * H), flat(W * H, 77), ramp(W * H), pat(W * H), n16(W * H);
  {
    std::ifstream f(argv[1], std::ios::binary);
    std::string line;
    std::getline(f, line);
    std::getline(f, line);
    f.read((char*)cam.data(), cam.size());
  }
  {
    std::ifstream pf("pat_l.gray", std::ios::binary);
    pf.read((char*)pat.data(), pat.size());
  }
  std::mt19937 g(1);
  for (auto& v : rnd) v = uint8_t(g());
  for (int i = 0; i < W * H; ++i) ramp[i] = uint8_t((i % W) * 256 / W);
  std::normal_distribution<double> nd(0, 16);
  for (int i = 0; i < W * H; ++i)
    n16[i] = uint8_t(std::clamp(std::round(40 + (i % W) * 160.0 / W + nd(g)), 0.0, 255.0));
  const char* names[] = {"camera", "random", "flat", "ramp", "pattern", "noise16"};
  std::vector<uint8_t>* data[] = {&cam, &rnd, &flat, &ramp, &pat, &n16};
  HistogramCounter counter(ChannelSet::of("l"), LumaWeights::kBt709);
  for (int d = 0; d < 6; ++d) {
    std::vector<double> a, b;
    uint64_t chk = 0, chk2 = 0;
    for (int r = 0; r < 150; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      for (int y = 0; y < H; ++y) counter.countLuma(data[d]->data() + size_t(y) * W, W);
      ValueCounts vc;
      counter.drainInto(vc);
      auto t1 = std::chrono::steady_clock::now();
      std::array<std::array<uint32_t, 256>, 4> l{};
      for (int y = 0; y < H; ++y) count4(data[d]->data() + size_t(y) * W, W, l);
      auto t2 = std::chrono::steady_clock::now();
      chk += vc.counts[3][100];
      chk2 += l[0][100] + l[1][100] + l[2][100] + l[3][100];
      a.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      b.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    printf("%-8s countLuma %.3f ms  plain %.3f ms  %s\n", names[d], a[75], b[75],
           chk == chk2 ? "equal" : "DIFFER");
  }
}
