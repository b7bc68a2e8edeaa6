#pragma once
// ffmpeg 5.1's cropdetect, blurdetect and blockdetect (PipelineConfig::detect,
// FrameResult::cropdetect, ::blur, ::block), with ffmpeg's option names, ranges and defaults, on
// the planes ffmpeg's filters read: Y (and U, V at chroma resolution) of YUV frames, Y of GREY,
// and for RGB frames G, B, R (blurdetect, blockdetect) or the sum R + G + B (cropdetect).
// Definitions: docs/output-formats.md, "Detectors".
#include <cstdint>
#include <optional>
#include <string_view>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"

namespace esf {

// cropdetect: the box outside which every row and column is black. A line is black when the
// integer mean of its values (of R + G + B over 3 for RGB) is at most `limit` (below 1: a
// fraction of 255, as float). The box only grows; `reset` > 0 starts it again after that many
// frames; the first `skip` frames are not looked at (and have no figures); `max_outliers` bright
// lines are allowed inside a border.
struct CropDetectConfig {
  float limit = 24.0f / 255;  // 0..65535
  int round = 16;             // 0..INT_MAX: w and h are made multiples of it (<= 1: 16, odd: x2)
  int reset = 0;              // 0..INT_MAX
  int skip = 2;               // 0..INT_MAX
  int max_outliers = 0;       // 0..INT_MAX
  bool operator==(const CropDetectConfig&) const = default;
};

// blurdetect (Marziliano's perceptual blur): the mean width of the edges Canny finds with the
// thresholds low and high (fractions of 255), searched `radius` pixels each way, over the
// block_pct percent sharpest blocks of block_width x block_height (-1: the whole plane), averaged
// over the planes in the bit mask `planes`.
struct BlurDetectConfig {
  float high = 30.0f / 255;  // 0..1
  float low = 15.0f / 255;   // 0..1
  int radius = 50;           // 1..100
  int block_pct = 80;        // 1..100
  int block_width = -1;      // -1..INT_MAX
  int block_height = -1;     // -1..INT_MAX
  int planes = 1;            // 0..15
  bool operator==(const BlurDetectConfig&) const = default;
};

// blockdetect: how much stronger the gradients on a period_min..period_max pixel grid are than
// between it, horizontally or vertically, averaged over the planes in `planes`.
struct BlockDetectConfig {
  int period_min = 3;   // 2..32
  int period_max = 24;  // 2..64
  int planes = 1;       // 0..15
  bool operator==(const BlockDetectConfig&) const = default;
};

// Which detectors run (unset: not run).
struct DetectConfig {
  std::optional<CropDetectConfig> crop;
  std::optional<BlurDetectConfig> blur;
  std::optional<BlockDetectConfig> block;
  bool any() const { return crop || blur || block; }
  bool operator==(const DetectConfig&) const = default;
};

// "crop[,limit=X,round=N,reset=N,skip=N,max_outliers=N],blur[,high=X,...],block[,...]": each
// detector's name, then its keys (ffmpeg's names; reset_count is reset). "" runs none. Errors
// (ErrorCode::kInvalidArgument) are one line naming `what` and the key or word.
ESF_API Result<DetectConfig> parseDetectConfig(std::string_view text,
                                               std::string_view what = "detect");

// One frame's cropdetect figures, as ffmpeg prints them: the black borders' inner lines x1, x2,
// y1, y2 (inclusive), and the rounded box crop=w:h:x:y.
struct CropDetectFigures {
  int x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  int w = 0, h = 0, x = 0, y = 0;
  bool operator==(const CropDetectFigures&) const = default;
};

}  // namespace esf
