#include "core/cpu/cpu_scopes.hpp"

#include <algorithm>

#include "base/channels.hpp"
#include "core/stages/scopes_reference.hpp"

namespace esf {
namespace {
constexpr size_t kVectorscopeWords = 256 * 256;

// The counts one thread adds: its scope columns' waveform and parade words, its own vectorscope.
struct BandCounts {
  uint32_t* waveform;
  uint32_t* red;
  uint32_t* green;
  uint32_t* blue;
  uint32_t* vectorscope;
};

// Pixel columns [x0, x1) of every row, each scope a template flag so the loop holds only the
// counting asked for (and its pointers in registers, not reloaded after each store).
template <bool kWaveform, bool kLumaImage, bool kParade, bool kVectorscope>
void countBand(const RgbaImage& image, const RgbaImage* luma, int x0, int x1,
               const uint32_t* column_of, BandCounts to) {
  uint32_t* const waveform = to.waveform;
  uint32_t* const red = to.red;
  uint32_t* const green = to.green;
  uint32_t* const blue = to.blue;
  uint32_t* const vectorscope = to.vectorscope;
  for (int y = 0; y < image.height; ++y) {
    const uint8_t* px = image.at(x0, y);
    const uint8_t* l = kLumaImage ? luma->at(x0, y) : nullptr;
    for (int x = x0; x < x1; ++x, px += 4) {
      const uint32_t r = px[0], g = px[1], b = px[2], at = column_of[x];
      if constexpr (kWaveform) {
        if constexpr (kLumaImage) {
          ++waveform[at + *l];
          l += 4;
        } else {
          ++waveform[at + lumaBt709(r, g, b)];
        }
      }
      if constexpr (kParade) {
        ++red[at + r];
        ++green[at + g];
        ++blue[at + b];
      }
      if constexpr (kVectorscope) {
        const int32_t ri = int32_t(r), gi = int32_t(g), bi = int32_t(b);
        ++vectorscope[scopeCr(ri, gi, bi) * 256 + scopeCb(ri, gi, bi)];
      }
    }
  }
}

using BandCounter = void (*)(const RgbaImage&, const RgbaImage*, int, int, const uint32_t*,
                             BandCounts);

template <bool kWaveform, bool kLumaImage, bool kParade>
BandCounter bandCounterFor(bool vectorscope) {
  return vectorscope ? &countBand<kWaveform, kLumaImage, kParade, true>
                     : &countBand<kWaveform, kLumaImage, kParade, false>;
}

BandCounter bandCounter(bool waveform, bool luma_image, bool parade, bool vectorscope) {
  if (!waveform)
    return parade ? bandCounterFor<false, false, true>(vectorscope)
                  : bandCounterFor<false, false, false>(vectorscope);
  if (luma_image)
    return parade ? bandCounterFor<true, true, true>(vectorscope)
                  : bandCounterFor<true, true, false>(vectorscope);
  return parade ? bandCounterFor<true, false, true>(vectorscope)
                : bandCounterFor<true, false, false>(vectorscope);
}

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
  const bool vectorscope = scopes.vectorscope && rgb_vectorscope;
  // Each pixel column's first word in the waveform (and each parade plane): column * 256.
  column_words_.resize(size_t(w));
  for (int x = 0; x < w; ++x)
    column_words_[size_t(x)] = uint32_t(scopeColumnOf(x, columns, w)) * 256;
  // Scope columns [c0, c1) hold pixel columns [ceil(c0 * w / columns), ceil(c1 * w / columns)).
  auto first_pixel = [&](int c) {
    return int((uint64_t(c) * uint64_t(w) + uint64_t(columns) - 1) / uint64_t(columns));
  };
  uint32_t* waveform = scopes.waveform ? out.waveform.data() : nullptr;
  uint32_t* red = scopes.parade ? out.parade.data() : nullptr;
  uint32_t* green = red ? red + column_words : nullptr;
  uint32_t* blue = red ? green + column_words : nullptr;
  const int threads = pool.threads();
  if (vectorscope) {
    vectorscopes_.resize(size_t(threads));
    for (std::vector<uint32_t>& v : vectorscopes_) v.assign(kVectorscopeWords, 0);
  }
  // One pass, the threads split by scope columns: each owns its columns' waveform and parade
  // words, and adds the vectorscope into its own counts.
  const BandCounter counter =
      bandCounter(waveform != nullptr, luma != nullptr, red != nullptr, vectorscope);
  pool.forEachBand(columns, [&](int c0, int c1, int index) {
    BandCounts to{waveform, red, green, blue,
                  vectorscope ? vectorscopes_[size_t(index)].data() : nullptr};
    counter(image, luma, first_pixel(c0), first_pixel(c1), column_words_.data(), to);
  });
  if (!vectorscope) return;
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
