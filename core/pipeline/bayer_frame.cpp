#include "core/pipeline/bayer_frame.hpp"

#include "base/pixel_format.hpp"
#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/import/bayer_unpack.hpp"
#include "core/stats/raw_histogram.hpp"

namespace esf {

Result<BayerInput> prepareBayer(const Frame& frame, const PipelineConfig& config, RowPool* pool) {
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  BayerInput in;
  DemosaicParams& d = in.demosaic;
  d.order = info.cfa;
  d.bit_depth = info.bit_depth;
  d.black = config.raw.black;
  d.white = config.raw.white ? config.raw.white : (1u << info.bit_depth) - 1;
  d.gain_r = config.raw.gain_r;
  d.gain_b = config.raw.gain_b;
  if (Status s = d.validate(frame.width, frame.height); !s)
    return fail(s.error().code, info.name, " ", s.error().message);
  RowSplitter split;
  if (pool)
    split = [pool](int count, const std::function<void(int, int)>& rows) {
      pool->forEachBand(count, [&](int begin, int end, int) { rows(begin, end); });
    };
  Result<std::vector<uint16_t>> values = unpackBayerFrame(frame, split);
  if (!values) return values.error();
  in.values = std::move(values.value());
  const RawLevels levels{d.black, d.white};
  Result<RawSiteHistograms> stats =
      pool ? rawSiteHistogramsCpu(in.values, frame.width, frame.height, d.order, d.bit_depth,
                                  levels, config.histogram.bins, *pool)
           : rawSiteHistograms(in.values, frame.width, frame.height, d.order, d.bit_depth, levels,
                               config.histogram.bins);
  if (!stats) return stats.error();
  in.stats = std::move(stats.value());
  return in;
}

}  // namespace esf
