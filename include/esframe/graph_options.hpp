#pragma once
// What the histogram graph shows (--output png / drm: mode=, scale=, decor=). The picture of each
// mode is in docs/ (graph-overlay.png, graph-parade.png, graph-luma.png).
namespace esf {

enum class GraphMode {
  kOverlay,  // every channel over one another, colour by the set of channels reaching a pixel
  kParade,   // one panel per channel, side by side, in the histogram's channel order
  kLuma,     // the l channel alone (needs l in --channels)
};

// What the bars count: the image's channels (--histogram channels) or, for Bayer frames, the
// sensor's raw per-site histograms R, Gr, Gb, B (the JSONL/CSV raw fields).
enum class GraphSource {
  kImage,
  kRaw,
};

struct GraphOptions {
  GraphMode mode = GraphMode::kOverlay;
  bool log_scale = false;  // bar height ~ log2(count + 1) / log2(max + 1) instead of linear
  // A text strip (luma mean, p10/p50/p90, EV hint, clipped fractions), clipping markers at both
  // ends and a faint quarter grid. Off: the bars alone (the plain picture).
  bool decorations = true;
  GraphSource source = GraphSource::kImage;
};

}  // namespace esf
