#include "core/pipeline/backend_common.hpp"

#include "base/pixel_format.hpp"
#include "core/stages/scale_reference.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {

std::string withoutLuma(const std::string& channels) {
  std::string out;
  for (char c : channels)
    if (c != 'l') out += c;
  return out;
}

HistogramData mergeLuma(const std::string& channels, int bins, const std::string& rgb_channels,
                        const std::vector<uint32_t>& rgb_counts,
                        const std::vector<uint32_t>& l_counts) {
  HistogramData h;
  h.bins = bins;
  h.channels = channels;
  h.counts.resize(size_t(bins) * channels.size());
  const size_t rgb_n = rgb_channels.size();
  for (int b = 0; b < bins; ++b) {
    for (size_t c = 0; c < channels.size(); ++c) {
      uint32_t v;
      if (channels[c] == 'l')
        v = l_counts[size_t(b)];
      else
        v = rgb_counts[size_t(b) * rgb_n + rgb_channels.find(channels[c])];
      h.counts[size_t(b) * channels.size() + c] = v;
    }
  }
  return h;
}

void finishFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values, int width,
                       int height) {
  WallTimer stats_timer;
  r.stats = exposureStats(values, r.hist);
  r.timings.push_back({"stats", stats_timer.ms(), false});
  r.seq = frame.sequence;
  r.ts_ns = frame.timestamp_ns;
  r.dropped = frame.dropped;
  r.corrupted = frame.corrupted;
  r.source = frame.source;
  r.format = formatName(frame.format);
  r.width = width;
  r.height = height;
}

void finishHostFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values,
                           int width, int height) {
  WallTimer scale_timer;
  for (const ChannelScale& s : scaleReference(r.hist.counts, r.hist.bins, r.hist.channelCount(),
                                              size_t(width) * size_t(height)))
    r.scale.push_back(s.scale);
  r.timings.push_back({"scale", scale_timer.ms(), false});
  finishFrameResult(r, frame, values, width, height);
}

void finishHostFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values,
                           const RgbaImage& image) {
  finishHostFrameResult(r, frame, values, image.width, image.height);
  r.image = &image;
}

}  // namespace esf
