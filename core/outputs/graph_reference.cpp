// The CPU reference of glsl_es/graph.frag: the same per-pixel rule, in the same order.
#include <algorithm>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/graph_renderer.hpp"

namespace esf {
namespace {

struct Panel {
  int x = 0, width = 0;                    // columns of the panel
  int first_channel = 0, end_channel = 0;  // channels drawn in it
};

Panel panelAt(const GraphOptions& options, const HistogramData& hist, int x, int width) {
  const int channels = hist.channelCount();
  if (options.mode == GraphMode::kLuma) {
    const int l = int(hist.channels.find('l'));
    return {0, width, l, l + 1};
  }
  if (options.mode == GraphMode::kOverlay) return {0, width, 0, channels};
  int k = 0;  // the panel whose left edge k * width / channels is the last at or left of x
  while (k + 1 < channels && (k + 1) * width / channels <= x) ++k;
  const int x0 = k * width / channels, x1 = (k + 1) * width / channels;
  return {x0, x1 - x0, k, k + 1};
}

bool onGrid(int x, int width, int row, int rows) {
  for (int k = 1; k <= 3; ++k)
    if (x == k * width / 4 || row == k * rows / 4) return true;
  return false;
}

}  // namespace

RgbaImage renderGraphReference(const HistogramData& hist, std::span<const float> scale, int width,
                               int height, const GraphOptions& options, const GraphLabels& labels,
                               uint8_t background_alpha) {
  const GraphLayout layout = graphLayout(options, width, height, labels);
  std::vector<uint32_t> log_max(size_t(hist.channelCount()), 0);
  for (int c = 0; c < hist.channelCount(); ++c) {
    uint32_t max_count = 0;
    for (int b = 0; b < hist.bins; ++b) max_count = std::max(max_count, hist.at(b, c));
    log_max[size_t(c)] = logQ8(max_count + 1);
  }
  std::array<uint8_t, 4> background = graphColour(0, options.source);
  background[3] = background_alpha;
  auto pixel = [&](int x, int row, std::array<uint8_t, 4>& colour) {
    if ((x < layout.marker_width && row < layout.clip_rows_low) ||
        (x >= width - layout.marker_width && row < layout.clip_rows_high)) {
      colour = kGraphMarkerColour;
      return;
    }
    const Panel panel = panelAt(options, hist, x, width);
    const int px = x - panel.x;
    const int bin = int((int64_t(2 * px + 1) * hist.bins) / (int64_t(2) * panel.width));
    uint32_t mask = 0;
    for (int c = panel.first_channel; c < panel.end_channel; ++c) {
      const uint32_t count = hist.at(bin, c);
      bool lit;
      if (options.log_scale) {
        lit = uint64_t(2 * row + 1) * log_max[size_t(c)] <
              uint64_t(2 * layout.graph_rows) * logQ8(count + 1);
      } else {
        // Two separately rounded float products, as in graph.frag.
        const float h = float(count) * scale[size_t(c)];
        lit = h * float(layout.graph_rows) > float(row) + 0.5f;
      }
      if (lit) mask |= graphChannelBit(hist.channels[size_t(c)]);
    }
    if (mask != 0)
      colour = graphColour(int(mask), options.source);
    else if (layout.grid && onGrid(px, panel.width, row, layout.graph_rows))
      colour = kGraphGridColour;
  };
  return paintGraphReference(layout, width, height, labels.caption, background, pixel);
}

}  // namespace esf
