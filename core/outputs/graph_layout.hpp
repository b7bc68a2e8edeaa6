#pragma once
// The geometry and colours of the histogram graph, shared by graph.frag's host code
// (GraphRenderer) and its CPU reference (renderGraphReference), in integers so both draw the
// same pixels. Rows are counted from the bottom, as GL does.
//
//   +--------------------------------------+  strip_rows: the caption, glyphs text_scale times
//   | L MEAN 118.2 P10 40 P50 120 ...      |  their size, 2 * text_scale from the left edge
//   |#    :        :        :           #  |  graph_rows: the bars; clip markers marker_width
//   |#   .:.       :   ..   :           #  |  wide at both edges, clip_rows_* high; grid lines
//   |#..::::.......:..::::..:.....      #  |  at quarter columns (of each panel) and rows
//   +--------------------------------------+
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/outputs/bitmap_font.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/graph_options.hpp"
#include "esframe/histogram_data.hpp"

namespace esf {

constexpr std::array<uint8_t, 4> kGraphGridColour = {72, 72, 72, 255};
constexpr std::array<uint8_t, 4> kGraphTextColour = {255, 255, 255, 255};
constexpr std::array<uint8_t, 4> kGraphMarkerColour = {255, 128, 0, 255};
constexpr int kGraphMaxTextColumns = 512;  // the caption is cut at this many pixel columns

// RGBA bytes of colour `mask` (0..15): a table indexed by the 4-bit mask of channels
// drawn at a pixel (r 1, g 2, b 4, l 8): black, red, green, yellow, blue, magenta, cyan,
// grey 128, and white for every mask with luma. Mask 0 is the background.
std::array<uint8_t, 4> graphColour(int mask);
// The raw source's colours (R 1, Gr 2, B 4, Gb 8): red is 255 with R, blue 255 with B, green
// adds Gr's 160 and Gb's 96 (saturating at 255), so Gr, Gb and both are three greens.
std::array<uint8_t, 4> rawGraphColour(int mask);
std::array<uint8_t, 4> graphColour(int mask, GraphSource source);
// The channel letters of a raw graph histogram, in CfaSite order R, Gr, Gb, B: graphChannelBit
// gives them the bits above ('G', Gb, gets 8).
constexpr const char* kRawGraphChannels = "rgGb";
// The raw per-site counts as a HistogramData with kRawGraphChannels, interleaved as the
// histogram stage writes them, and each channel's scale from the CPU scale reference (the
// stage's rule, against that site's own pixel count).
HistogramData rawGraphHistogram(const RawHistogramData& raw);
std::vector<float> rawGraphScales(const RawHistogramData& raw);
// The mask bit of a channel letter: r 1, g 2, b 4, l 8.
uint32_t graphChannelBit(char letter);

// log2(v) in fixed point with 8 fraction bits by Mitchell's approximation (exponent plus the
// linear mantissa: exact at powers of two, monotonic), 0 for v <= 1. The log scale draws
// count c as a bar of logQ8(c + 1) / logQ8(max + 1) of the graph.
uint32_t logQ8(uint32_t v);

// What one frame's decorations say: computed on the CPU from the frame's histogram and stats.
struct GraphLabels {
  std::string caption;  // the text strip ("" draws none)
  // Pixels of the clip channel (l when present, else the first) in the first and last bins,
  // and all its pixels.
  uint64_t clipped_low = 0, clipped_high = 0, total = 0;
};
// caption: "L MEAN 118.2 P10 40 P50 120 P90 200 EV +0.3 CLIP 0.10%/2.35%" from the clip
// channel's stats (core/stats/exposure_stats.hpp); EV is "-" when the channel is empty.
// Bayer frames (raw non-null) end with " RAW CLIP r/gr/gb/b%" instead of CLIP: each site's
// clipped fraction against the sensor's white level, in percent with one decimal
// ("RAW CLIP 0.0/0.1/0.1/2.4%"), which the caption strip of a 512-pixel graph still holds.
// With camera health figures the caption begins with the picture's state: "BLACK ", "FROZEN "
// (a black picture says BLACK) or "OK ".
GraphLabels graphLabels(const HistogramData& hist, const std::vector<ChannelStats>& stats,
                        const RawHistogramData* raw = nullptr,
                        const HealthFigures* health = nullptr);
// The raw source's labels: caption "RAW R/GR/GB/B CLIP 0.0/0.1/0.1/2.4%" (each site's clipped
// fraction against the white level); the markers count all sites' first and last bins.
GraphLabels rawGraphLabels(const RawHistogramData& raw);

struct GraphLayout {
  int text_scale = 1;  // glyph pixels are text_scale x text_scale
  int strip_rows = 0;  // the caption strip at the top; 0 without decorations or room
  int graph_rows = 0;  // height - strip_rows: the bars' full height
  bool grid = false;
  int marker_width = 0;  // 0 without decorations
  int clip_rows_low = 0, clip_rows_high = 0;
  int text_columns = 0;  // caption columns drawn (before text_scale)
};
// text_scale = max(1, min(width / 400, height / 100)); the strip is 9 * text_scale rows when
// decorations are on and height >= 36 * text_scale; markers are 3 * text_scale wide and, when
// any pixel is clipped, max(3 * text_scale, ceil(clipped * graph_rows / total)) rows high
// (at most graph_rows).
GraphLayout graphLayout(const GraphOptions& options, int width, int height,
                        const GraphLabels& labels);
// Whether pixel x of row from_top (inside the strip) is the caption's ink: glyph pixels
// text_scale wide from column 2 * text_scale and row text_scale, `text` the caption's
// textColumns(). The CPU references' rule; graph.frag and scope.frag have it in GLSL.
bool captionInk(const GraphLayout& layout, const std::vector<uint8_t>& text, int x, int from_top);

// A CPU reference's picture, pixel by pixel as graph.frag and scope.frag draw it: in the strip
// the caption's ink over `background`; below it, what pixel(x, row, colour) makes of `colour`
// (the background when it comes in; row counted from the bottom, as GL does).
template <typename Pixel>
RgbaImage paintGraphReference(const GraphLayout& layout, int width, int height,
                              std::string_view caption, std::array<uint8_t, 4> background,
                              Pixel&& pixel) {
  RgbaImage out(width, height);
  const std::vector<uint8_t> text = textColumns(caption);
  for (int row = 0; row < height; ++row) {
    const int from_top = height - 1 - row;
    for (int x = 0; x < width; ++x) {
      std::array<uint8_t, 4> colour = background;
      if (from_top >= layout.strip_rows)
        pixel(x, row, colour);
      else if (captionInk(layout, text, x, from_top))
        colour = kGraphTextColour;
      std::copy(colour.begin(), colour.end(), out.at(x, from_top));
    }
  }
  return out;
}

}  // namespace esf
