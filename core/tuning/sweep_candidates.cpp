#include "core/tuning/sweep_candidates.hpp"

#include <algorithm>

namespace esf {

std::vector<int> powersOfTwo(int lo, int hi) {
  std::vector<int> v;
  for (long long x = 1; x <= hi; x *= 2)
    if (x >= lo) v.push_back(int(x));
  return v;
}

std::vector<HistogramParams> persistentCandidates(const HistogramParams& base,
                                                  const ComputeLimits& limits, bool quick,
                                                  int max_workgroups) {
  int max_wg = std::min({limits.work_group_invocations, limits.work_group_size[0], 1024});
  std::vector<int> sizes = {1};
  for (int s : powersOfTwo(16, max_wg)) sizes.push_back(s);
  std::vector<int> counts = powersOfTwo(1, max_workgroups);
  if (quick) {
    sizes = {1, 16};
    counts = {1, 4};
  }
  std::vector<HistogramParams> out;
  for (int wg : sizes) {
    for (int n : counts) {
      // Many one-invocation workgroups only add merges; llvmpipe wants few, GPUs want wide ones.
      if (wg == 1 && n > 64) continue;
      HistogramParams p = base;
      p.strategy = HistogramStrategy::kPersistent;
      p.workgroup_size = wg;
      p.workgroups = n;
      p.shared_atomics = wg > 1;
      if (p.validate(limits)) out.push_back(p);
    }
  }
  return out;
}

std::vector<HistogramParams> replicatedCandidates(const HistogramParams& base,
                                                  const ComputeLimits& limits, bool quick) {
  std::vector<HistogramParams> out;
  std::vector<int> counts = quick ? std::vector<int>{1, 3} : std::vector<int>{1, 2, 3, 4, 6, 8};
  // The most that fit this driver's shared memory (7 on v3d for rgbl x 256 bins, 11 at 48 KB).
  HistogramParams most = base;
  most.strategy = HistogramStrategy::kReplicated;
  for (most.replicas = 64; most.replicas > 1 && most.sharedBytes() > limits.shared_memory_size;)
    --most.replicas;
  if (!quick && std::find(counts.begin(), counts.end(), most.replicas) == counts.end())
    counts.push_back(most.replicas);
  for (bool planar : {false, true}) {
    for (bool rle : {false, true}) {
      for (int r : counts) {
        HistogramParams p = base;
        p.strategy = HistogramStrategy::kReplicated;
        p.replicas = r;
        p.run_length = rle;
        p.planar = planar;
        if (p.validate(limits)) out.push_back(p);
      }
    }
  }
  return out;
}

std::vector<BlurParams> blurCandidates(const BlurParams& base, const ComputeLimits& limits,
                                       bool quick) {
  std::vector<BlurParams> out;
  int max_lines = std::min({limits.work_group_invocations, limits.work_group_size[0], 1024});
  // fused: output tile x segment x workgroup size, within the shared memory.
  for (int tw : quick ? std::vector<int>{16} : std::vector<int>{32, 64, 128}) {
    for (int th : quick ? std::vector<int>{8} : std::vector<int>{16, 32, 64}) {
      for (int seg : quick ? std::vector<int>{8} : std::vector<int>{8, 16}) {
        for (int wg : quick ? std::vector<int>{64} : std::vector<int>{128, 256, 512}) {
          BlurParams p = base;
          p.strategy = BlurStrategy::kFused;
          p.tile_width = tw;
          p.tile_rows = th;
          p.segment = seg;
          p.workgroup_size = wg;
          if (p.validate(limits)) out.push_back(p);
        }
      }
    }
  }
  // split: the horizontal tile (no vertical halo) x segment of the vertical pass x its form:
  // sliding with taps read ahead (1, 4, 8), or the columns pass through a packed buffer (rows
  // read ahead 1 or 8, a column or a quad per invocation).
  struct VerticalForm {
    int prefetch;
    bool through_buffer, quads;
  };
  const std::vector<VerticalForm> forms =
      quick ? std::vector<VerticalForm>{{4, false, false}, {1, true, true}}
            : std::vector<VerticalForm>{{1, false, false}, {4, false, false}, {1, true, false},
                                        {8, true, false},  {1, true, true},   {4, true, true}};
  for (int tw : quick ? std::vector<int>{16} : std::vector<int>{64, 128, 256}) {
    for (int th : quick ? std::vector<int>{4} : std::vector<int>{4, 8, 16, 32}) {
      for (int seg : quick ? std::vector<int>{8} : std::vector<int>{8, 16, 32}) {
        for (const VerticalForm& form : forms) {
          BlurParams p = base;
          p.strategy = BlurStrategy::kSplit;
          p.tile_width = tw;
          p.tile_rows = th;
          p.segment = seg;
          p.prefetch = form.prefetch;
          p.buffer_intermediate = form.through_buffer;
          p.column_quads = form.quads;
          p.workgroup_size = quick ? 64 : 256;
          if (p.validate(limits)) out.push_back(p);
        }
      }
    }
  }
  // split through a buffer with the horizontal pass from registers (row_quads): no tile, so
  // workgroup size x segment x the vertical pass's form.
  for (int wg : quick ? std::vector<int>{64} : std::vector<int>{64, 128, 256}) {
    for (int seg : quick ? std::vector<int>{8} : std::vector<int>{8, 16, 32}) {
      for (const VerticalForm& form : forms) {
        if (!form.through_buffer) continue;
        BlurParams p = base;
        p.strategy = BlurStrategy::kSplit;
        p.tile_width = 64;  // the tile pass's, for widths that are not a multiple of 4
        p.tile_rows = 16;
        p.segment = seg;
        p.prefetch = form.prefetch;
        p.buffer_intermediate = true;
        p.column_quads = form.quads;
        p.row_quads = true;
        p.workgroup_size = wg;
        if (p.validate(limits)) out.push_back(p);
      }
    }
  }
  // stream: rows per workgroup x columns per invocation x workgroup size, within shared memory.
  // (On an H100 its best was slower than sliding at 3840x2160, bench/results/h100-stages.md: a
  // tile streams its rows one after the other, few resident warps per tile. Kept as a candidate
  // for GPUs with small caches.)
  for (int rows : quick ? std::vector<int>{16} : std::vector<int>{64, 128, 256}) {
    for (int cols : quick ? std::vector<int>{2} : std::vector<int>{1, 2}) {
      for (int wg : quick ? std::vector<int>{32} : std::vector<int>{32, 64}) {
        BlurParams p = base;
        p.strategy = BlurStrategy::kStream;
        p.tile_rows = rows;
        p.segment = cols;
        p.workgroup_size = wg;
        if (p.validate(limits)) out.push_back(p);
      }
    }
  }
  // sliding: segment length x lines per workgroup x taps read ahead (only where a segment holds
  // several batches of them).
  for (int seg : quick ? std::vector<int>{16, 64} : std::vector<int>{8, 16, 32, 64, 128, 256}) {
    for (int wg : quick ? std::vector<int>{32} : powersOfTwo(16, std::min(max_lines, 256))) {
      for (int prefetch : quick ? std::vector<int>{1, 4} : std::vector<int>{1, 4, 8}) {
        if (prefetch > 1 && seg < 2 * prefetch) continue;
        BlurParams p = base;
        p.strategy = BlurStrategy::kSliding;
        p.segment = seg;
        p.workgroup_size = wg;
        p.prefetch = prefetch;
        if (p.validate(limits)) out.push_back(p);
      }
    }
  }
  int max_wg = std::min({limits.work_group_invocations, limits.work_group_size[0], 1024});
  std::vector<int> widths = quick ? std::vector<int>{64, 128} : powersOfTwo(32, 2048);
  std::vector<int> rows = quick ? std::vector<int>{4} : powersOfTwo(1, 8);
  for (int w : widths) {
    for (int r : rows) {
      for (int wg : powersOfTwo(16, std::min(w, max_wg))) {
        if (quick && wg != 32) continue;
        BlurParams p = base;
        p.strategy = BlurStrategy::kTiled;
        p.tile_width = w;
        p.tile_rows = r;
        p.workgroup_size = wg;
        if (p.filter_dim <= p.maxFilterDim() && p.validate(limits)) out.push_back(p);
      }
    }
  }
  return out;
}

}  // namespace esf
