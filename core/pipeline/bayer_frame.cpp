#include "core/pipeline/bayer_frame.hpp"

#include <string>

#include "base/pixel_format.hpp"
#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/import/bayer_unpack.hpp"
#include "core/stats/raw_histogram.hpp"

namespace esf {

Result<BayerSetup> configureBayer(PixelFormat format, int width, int height,
                                  const PipelineConfig& config) {
  const PixelFormatInfo& info = pixelFormatInfo(format);
  BayerSetup setup;
  setup.format = format, setup.width = width, setup.height = height;
  DemosaicParams& d = setup.demosaic;
  d.order = info.cfa;
  d.bit_depth = info.bit_depth;
  d.black = config.raw.black;
  d.white = config.raw.white ? config.raw.white : (1u << info.bit_depth) - 1;
  d.gain_r = config.raw.gain_r;
  d.gain_b = config.raw.gain_b;
  if (Status s = d.validate(width, height); !s)
    return fail(s.error().code, info.name, " ", s.error().message);
  Result<BayerUnpacking> unpacking = bayerUnpacking(format, width);
  if (!unpacking) return unpacking.error();
  setup.unpacking = unpacking.value();
  setup.bins = config.histogram.bins;
  return setup;
}

Result<std::vector<uint16_t>> unpackBayer(const Frame& frame, const BayerSetup& setup,
                                          RowPool& pool) {
  if (frame.format != setup.format || frame.width != setup.width || frame.height != setup.height)
    return fail(ErrorCode::kInternal, "pipeline: a Bayer frame of another format or size than ",
                setup.unpacking.format_name, " ", std::to_string(setup.width), "x",
                std::to_string(setup.height), " configured");
  const RowSplitter split = [&pool](int count, const std::function<void(int, int)>& rows) {
    pool.forEachBand(count, [&](int begin, int end, int) { rows(begin, end); });
  };
  return unpackBayerFrame(frame, setup.unpacking, split);
}

Result<BayerInput> prepareBayer(const Frame& frame, const BayerSetup& setup, RowPool& pool) {
  Result<std::vector<uint16_t>> values = unpackBayer(frame, setup, pool);
  if (!values) return values.error();
  BayerInput in;
  in.values = std::move(values.value());
  const DemosaicParams& d = setup.demosaic;
  const RawLevels levels{d.black, d.white};
  Result<RawSiteHistograms> stats = rawSiteHistogramsCpu(
      in.values, frame.width, frame.height, d.order, d.bit_depth, levels, setup.bins, pool);
  if (!stats) return stats.error();
  in.stats = std::move(stats.value());
  return in;
}

}  // namespace esf
