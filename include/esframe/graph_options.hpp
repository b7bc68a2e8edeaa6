#pragma once
// What the histogram graph shows (--output png / drm: mode=, scale=, decor=, scope=). The picture
// of each mode is in docs/ (graph-overlay.png, graph-parade.png, graph-luma.png).
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

// Instead of the histogram, one of the frame's scopes (FrameResult::scopes, which must carry it):
// the waveform (x the column, y the level from the bottom), the RGB parade (the same, one panel
// per channel) or the vectorscope (Cb to the right, Cr up). Brightness grows with the count:
// linear, the largest count at full brightness, or log_scale (core/outputs/scope_layout.hpp).
enum class GraphScope {
  kNone,
  kWaveform,
  kParade,
  kVectorscope,
};

struct GraphOptions {
  GraphMode mode = GraphMode::kOverlay;
  bool log_scale = false;  // bar height ~ log2(count + 1) / log2(max + 1) instead of linear
  // A text strip (luma mean, p10/p50/p90, EV hint, clipped fractions), clipping markers at both
  // ends and a faint quarter grid. Off: the bars alone (the plain picture).
  bool decorations = true;
  GraphSource source = GraphSource::kImage;
  GraphScope scope = GraphScope::kNone;  // not kNone: mode and source do not apply
};

}  // namespace esf
