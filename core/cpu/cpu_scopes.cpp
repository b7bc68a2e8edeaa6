#include "core/cpu/cpu_scopes.hpp"

#include <algorithm>

#include "base/channels.hpp"
#include "core/stages/scopes_reference.hpp"

namespace esf {
namespace {
constexpr size_t kVectorscopeWords = 256 * 256;
}  // namespace

void CpuScopes::sumVectorscopes(int threads, std::vector<uint32_t>& out) const {
  out.assign(kVectorscopeWords, 0);
  for (int t = 0; t < threads; ++t) {
    const uint32_t* in = vectorscopes_[size_t(t)].data();
    for (size_t i = 0; i < kVectorscopeWords; ++i) out[i] += in[i];
  }
}

void CpuScopes::count(const RgbaImage& image, const RgbaImage* luma, const ScopeOptions& scopes,
                      int columns, bool rgb_vectorscope, RowPool& pool, ScopeCounts& out) {
  const int w = image.width, h = image.height;
  out.columns = columns;
  const size_t column_words = size_t(columns) * 256;
  if (scopes.waveform) out.waveform.assign(column_words, 0);
  if (scopes.parade) out.parade.assign(3 * column_words, 0);
  if (scopes.waveform || scopes.parade) {
    column_of_.resize(size_t(w));
    for (int x = 0; x < w; ++x) column_of_[size_t(x)] = scopeColumnOf(x, columns, w);
    // Scope columns [c0, c1) hold pixel columns [ceil(c0 * w / columns), ceil(c1 * w / columns)).
    auto first_pixel = [&](int c) {
      return int((uint64_t(c) * uint64_t(w) + uint64_t(columns) - 1) / uint64_t(columns));
    };
    uint32_t* waveform = scopes.waveform ? out.waveform.data() : nullptr;
    uint32_t* parade = scopes.parade ? out.parade.data() : nullptr;
    pool.forEachBand(columns, [&](int c0, int c1, int) {
      const int x0 = first_pixel(c0), x1 = first_pixel(c1);
      for (int y = 0; y < h; ++y) {
        const uint8_t* px = image.at(x0, y);
        const uint8_t* l = luma ? luma->at(x0, y) : nullptr;
        for (int x = x0; x < x1; ++x, px += 4) {
          const size_t column = size_t(column_of_[size_t(x)]) * 256;
          if (waveform) {
            const uint32_t level = l ? l[0] : lumaBt709(px[0], px[1], px[2]);
            ++waveform[column + level];
            if (l) l += 4;
          }
          if (parade) {
            ++parade[column + px[0]];
            ++parade[column_words + column + px[1]];
            ++parade[2 * column_words + column + px[2]];
          }
        }
      }
    });
  }
  if (!scopes.vectorscope || !rgb_vectorscope) return;
  const int threads = pool.threads();
  vectorscopes_.resize(size_t(threads));
  for (std::vector<uint32_t>& v : vectorscopes_) v.assign(kVectorscopeWords, 0);
  pool.forEachBand(h, [&](int y0, int y1, int index) {
    uint32_t* counts = vectorscopes_[size_t(index)].data();
    for (int y = y0; y < y1; ++y) {
      const uint8_t* px = image.at(0, y);
      for (int x = 0; x < w; ++x, px += 4)
        ++counts[scopeCr(px[0], px[1], px[2]) * 256 + scopeCb(px[0], px[1], px[2])];
    }
  });
  sumVectorscopes(threads, out.vectorscope);
  out.vectorscope_samples = uint64_t(w) * uint64_t(h);
}

bool CpuScopes::countSource(const Frame& frame, RowPool& pool, ScopeCounts& out) {
  ChromaSamples c;
  if (!chromaSamplesOf(frame, c)) return false;
  const int threads = pool.threads();
  vectorscopes_.resize(size_t(threads));
  for (std::vector<uint32_t>& v : vectorscopes_) v.assign(kVectorscopeWords, 0);
  pool.forEachBand(c.height, [&](int y0, int y1, int index) {
    uint32_t* counts = vectorscopes_[size_t(index)].data();
    for (int y = y0; y < y1; ++y) {
      const uint8_t* cb = c.cb + c.cb_at.row[size_t(y * c.vsub)];
      const uint8_t* cr = c.cr + c.cr_at.row[size_t(y * c.vsub)];
      for (int x = 0; x < c.width; ++x) {
        const size_t pixel = size_t(x * c.hsub);
        ++counts[size_t(cr[c.cr_at.column[pixel]]) * 256 + cb[c.cb_at.column[pixel]]];
      }
    }
  });
  sumVectorscopes(threads, out.vectorscope);
  out.vectorscope_samples = uint64_t(c.width) * uint64_t(c.height);
  return true;
}

}  // namespace esf
