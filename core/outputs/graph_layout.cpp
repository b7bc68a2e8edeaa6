#include "core/outputs/graph_layout.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <optional>

#include "base/channels.hpp"
#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/frame_summary.hpp"
#include "core/stages/scale_reference.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {
namespace {

constexpr std::array<std::array<uint8_t, 4>, 8> kColours = {{
    {0, 0, 0, 255},        // nothing
    {255, 0, 0, 255},      // r
    {0, 255, 0, 255},      // g
    {255, 255, 0, 255},    // r g
    {0, 0, 255, 255},      // b
    {255, 0, 255, 255},    // r b
    {0, 255, 255, 255},    // g b
    {128, 128, 128, 255},  // r g b
}};

int clipChannel(const std::string& channels) {
  const size_t l = channels.find('l');
  return l == std::string::npos ? 0 : int(l);
}

int markerRows(uint64_t clipped, uint64_t total, int graph_rows, int text_scale) {
  if (clipped == 0 || total == 0 || graph_rows <= 0) return 0;
  const uint64_t rows = (clipped * uint64_t(graph_rows) + total - 1) / total;
  return int(std::min<uint64_t>(uint64_t(graph_rows), std::max<uint64_t>(3 * text_scale, rows)));
}

}  // namespace

std::array<uint8_t, 4> graphColour(int mask) {
  if (mask >= 8) return {255, 255, 255, 255};  // anything with luma
  return kColours[size_t(mask)];
}

std::array<uint8_t, 4> rawGraphColour(int mask) {
  const int green = ((mask & 2) ? 160 : 0) + ((mask & 8) ? 96 : 0);
  return {uint8_t((mask & 1) ? 255 : 0), uint8_t(std::min(green, 255)),
          uint8_t((mask & 4) ? 255 : 0), 255};
}

std::array<uint8_t, 4> graphColour(int mask, GraphSource source) {
  return source == GraphSource::kRaw ? rawGraphColour(mask) : graphColour(mask);
}

HistogramData rawGraphHistogram(const RawHistogramData& raw) {
  HistogramData h;
  h.bins = raw.bins;
  h.channels = kRawGraphChannels;
  h.counts.resize(size_t(raw.bins) * 4);
  for (size_t site = 0; site < 4; ++site)
    for (size_t b = 0; b < size_t(raw.bins); ++b) h.counts[b * 4 + site] = raw.counts[site][b];
  return h;
}

std::vector<float> rawGraphScales(const RawHistogramData& raw) {
  std::vector<float> scales;
  for (size_t site = 0; site < 4; ++site)
    scales.push_back(scaleReference(raw.counts[site], raw.bins, 1, raw.pixels[site])[0].scale);
  return scales;
}

uint32_t graphChannelBit(char letter) {
  const int code = channelCode(letter);  // r 0, g 1, b 2, l 3; any other letter (Gb) as l
  return uint32_t(1) << (code >= 0 ? code : 3);
}

uint32_t logQ8(uint32_t v) {
  if (v <= 1) return 0;
  const int exponent = std::bit_width(v) - 1;
  const uint32_t mantissa = v - (uint32_t(1) << exponent);
  const uint32_t fraction = exponent >= 8 ? mantissa >> (exponent - 8) : mantissa << (8 - exponent);
  return (uint32_t(exponent) << 8) + fraction;
}

GraphLabels graphLabels(const HistogramData& hist, const std::vector<ChannelStats>& stats,
                        const RawHistogramData* raw, const HealthFigures* health) {
  GraphLabels labels;
  if (hist.channelCount() == 0 || hist.bins == 0) return labels;
  const int c = clipChannel(hist.channels);
  for (int b = 0; b < hist.bins; ++b) labels.total += hist.at(b, c);
  labels.clipped_low = hist.at(0, c);
  labels.clipped_high = hist.at(hist.bins - 1, c);
  if (size_t(c) >= stats.size()) return labels;
  const ChannelStats& s = stats[size_t(c)];
  const std::optional<double> ev = s.count ? evHint(s.msv) : std::nullopt;
  char ev_text[16] = "-";
  if (ev) std::snprintf(ev_text, sizeof ev_text, "%+.1f", *ev);
  char text[160];
  std::snprintf(text, sizeof text, "%c MEAN %.1f P10 %u P50 %u P90 %u EV %s",
                std::toupper(static_cast<unsigned char>(s.channel)), s.mean, s.p10, s.p50, s.p90,
                ev_text);
  labels.caption = text;
  if (health)
    labels.caption.insert(0, health->black_picture ? "BLACK "
                             : health->frozen      ? "FROZEN "
                             : health->covered     ? "COVERED "
                                                   : "OK ");
  if (!raw) {
    std::snprintf(text, sizeof text, " CLIP %.2f%%/%.2f%%", 100.0 * s.clip_low,
                  100.0 * s.clip_high);
    labels.caption += text;
  } else {  // the sensor's own clipping says more than the 8-bit image's, and fits the strip
    std::snprintf(text, sizeof text, " RAW CLIP %.1f/%.1f/%.1f/%.1f%%",
                  100.0 * rawFraction(raw->clipped[0], raw->pixels[0]),
                  100.0 * rawFraction(raw->clipped[1], raw->pixels[1]),
                  100.0 * rawFraction(raw->clipped[2], raw->pixels[2]),
                  100.0 * rawFraction(raw->clipped[3], raw->pixels[3]));
    labels.caption += text;
  }
  return labels;
}

GraphLabels rawGraphLabels(const RawHistogramData& raw) {
  GraphLabels labels;
  if (raw.bins == 0) return labels;
  for (size_t site = 0; site < 4; ++site) {
    labels.total += raw.pixels[site];
    labels.clipped_low += raw.counts[site].front();
    labels.clipped_high += raw.counts[site].back();
  }
  char text[96];
  std::snprintf(text, sizeof text, "RAW R/GR/GB/B CLIP %.1f/%.1f/%.1f/%.1f%%",
                100.0 * rawFraction(raw.clipped[0], raw.pixels[0]),
                100.0 * rawFraction(raw.clipped[1], raw.pixels[1]),
                100.0 * rawFraction(raw.clipped[2], raw.pixels[2]),
                100.0 * rawFraction(raw.clipped[3], raw.pixels[3]));
  labels.caption = text;
  return labels;
}

GraphLayout graphLayout(const GraphOptions& options, int width, int height,
                        const GraphLabels& labels) {
  GraphLayout l;
  l.text_scale = std::max(1, std::min(width / 400, height / 100));
  l.graph_rows = height;
  if (!options.decorations) return l;
  if (height >= 36 * l.text_scale && !labels.caption.empty()) {
    l.strip_rows = 9 * l.text_scale;
    l.graph_rows = height - l.strip_rows;
    l.text_columns =
        std::min<int>(kGraphMaxTextColumns, int(labels.caption.size()) * kGlyphAdvance);
  }
  l.grid = true;
  l.marker_width = 3 * l.text_scale;
  l.clip_rows_low = markerRows(labels.clipped_low, labels.total, l.graph_rows, l.text_scale);
  l.clip_rows_high = markerRows(labels.clipped_high, labels.total, l.graph_rows, l.text_scale);
  return l;
}

bool captionInk(const GraphLayout& layout, const std::vector<uint8_t>& text, int x, int from_top) {
  const int s = layout.text_scale, tx = x - 2 * s, ty = from_top - s;
  return tx >= 0 && ty >= 0 && ty < kGlyphHeight * s && tx / s < layout.text_columns &&
         (text[size_t(tx / s)] >> (ty / s)) & 1;
}

}  // namespace esf
