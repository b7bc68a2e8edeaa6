#include "core/pipeline/bayer_frame.hpp"

#include "capture/pixel_format.hpp"
#include "core/cpu/row_pool.hpp"
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
  Result<std::vector<uint16_t>> values = unpackBayerFrame(frame);
  if (!values) return values.error();
  in.values = std::move(values.value());
  // Checked over no rows first: the parts below cannot fail.
  const RawLevels levels{d.black, d.white};
  Result<RawSiteHistograms> stats =
      rawSiteHistogramsOfRows(in.values, frame.width, frame.height, d.order, d.bit_depth, levels,
                              config.histogram.bins, 0, pool ? 0 : frame.height);
  if (!stats) return stats.error();
  if (pool) {
    std::vector<RawSiteHistograms> parts(size_t(pool->threads()));
    pool->forEachBand(frame.height, [&](int begin, int end, int band) {
      Result<RawSiteHistograms> part =
          rawSiteHistogramsOfRows(in.values, frame.width, frame.height, d.order, d.bit_depth,
                                  levels, config.histogram.bins, begin, end);
      if (part) parts[size_t(band)] = std::move(part.value());
    });
    for (const RawSiteHistograms& part : parts) addRawSiteCounts(*stats, part);
  }
  in.stats = std::move(stats.value());
  return in;
}

}  // namespace esf
