#pragma once
// Camera health: per-frame figures of the picture's luma that catch a black, frozen, defocused,
// covered or moved camera, each defined as ffmpeg's filter of the same purpose defines it
// (docs/output-formats.md, "Camera health", has every formula), and the events a run of them
// gives (a black or frozen interval starting and ending, a scene change).
//
// The luma is the source's own Y plane (YUV and GREY frames) or the integer BT.709 luma of the
// RGB (other frames), at the source's size, before any blur or resize.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"

namespace esf {

// A rectangle of the luma in pixels, (x, y) its top-left corner; clipped to each frame.
struct HealthRegion {
  int x = 0, y = 0, width = 0, height = 0;
  bool operator==(const HealthRegion&) const = default;
};

// The most regions the stages keep in shared memory: a 16 x 16 grid and 16 rectangles.
inline constexpr int kMaxHealthGridSide = 16;
inline constexpr size_t kMaxHealthRois = 16;

// The options, with ffmpeg's names and defaults (the regions' own: no ffmpeg filter has them).
struct HealthConfig {
  // blackdetect: a pixel is black at or below the threshold pix_th of the luma range (limited
  // range: 16 + pix_th * 219, full range: pix_th * 255, truncated); a picture is black when at
  // least pic_th of its pixels are; intervals of at least black_min_duration seconds are events.
  double pixel_black_th = 0.10;
  double picture_black_ratio_th = 0.98;
  double black_min_duration = 2.0;
  // freezedetect: a frame is frozen when its mean absolute luma difference to the first frame
  // of the freeze, as a fraction of 256, is at most freeze_noise; a freeze lasting at least
  // freeze_duration seconds is an event.
  double freeze_noise = 0.001;
  double freeze_duration = 2.0;
  // scdet: a scene change is a frame whose score (0-100) is above scene_threshold.
  double scene_threshold = 10.0;
  // Regions: a grid of grid_columns x grid_rows cells over the frame (cell c of C covers the
  // columns x with x * C / width == c, rows likewise; 0 x 0: no grid), then each of `rois`.
  // Each region gets its luma mean, Tenengrad and changed fraction from the same passes.
  int grid_columns = 0;
  int grid_rows = 0;
  std::vector<HealthRegion> rois;
  // A pixel changed when |Y - previous Y| > change_level.
  uint32_t change_level = 16;
  // A region is flat (has lost its detail) when its Tenengrad is below flat_tenengrad, or below
  // detail_loss times its Tenengrad on the last frame that was not covered; the picture is
  // covered when at least covered_ratio of the grid's cells are flat, and a covered run of at
  // least covered_min_duration seconds is an event (as a black interval is).
  double flat_tenengrad = 100;
  double detail_loss = 0.2;
  double covered_ratio = 0.75;
  double covered_min_duration = 2.0;
};

// The options as text, KEY=VALUE[,...] with the names above (ffmpeg's: pix_th, pic_th,
// black_min_duration, noise (also in dB: "-60dB"), freeze_duration, threshold; the regions':
// grid=CxR, roi=X,Y,W,H[,X,Y,W,H...], change, flat, detail_loss, covered,
// covered_min_duration), as the CLI's --health and the GStreamer element's health-options take
// them; "" gives the defaults. kInvalidArgument names the key and its range.
ESF_API Result<HealthConfig> parseHealthConfig(std::string_view keys);
// The same, its errors naming `what` where "health keys" stands otherwise: where the text came
// from ("--health", "health-options").
ESF_API Result<HealthConfig> parseHealthConfig(std::string_view keys, std::string_view what);

// One region's figures (HealthConfig's grid cells in row order, then its rois).
struct RegionFigures {
  uint64_t pixels = 0;   // of the region within the frame
  double mean = 0;       // mean luma
  double tenengrad = 0;  // mean squared Sobel magnitude over its interior pixels of the frame
  double changed = 0;    // fraction of its pixels that changed from the previous frame
  bool flat = false;     // below flat_tenengrad or lost its detail (never without interior
                         // pixels)
  bool operator==(const RegionFigures&) const = default;
};

// One frame's figures.
struct HealthFigures {
  uint64_t pixels = 0;         // width * height of the luma
  uint32_t black_level = 0;    // the black threshold in luma values
  uint64_t black_pixels = 0;   // pixels at or below black_level
  double black = 0;            // black_pixels / pixels (blackdetect's picture_black_ratio)
  bool black_picture = false;  // black >= picture_black_ratio_th
  double ydif = 0;             // signalstats YDIF: mean |Y - previous Y|, 0 on the first frame
  double scene_mafd = 0;       // scdet's mafd: 100 * sum |Y - previous Y| / pixels / 256
  double scene_score = 0;      // scdet's score: min(mafd, |mafd - previous mafd|), 0-100
  double freeze_mafd = 0;      // freezedetect's MAFD against the freeze's first frame
  bool frozen = false;         // freeze_mafd <= freeze_noise (never on the first frame)
  double si = 0;               // siti: spatial information (the Sobel magnitude's deviation)
  double ti = 0;               // siti: temporal information (the frame difference's deviation)
  double tenengrad = 0;        // focus: mean squared Sobel magnitude per interior pixel
  double entropy = 0;          // entropy (normal mode) of the luma histogram, in bits (0-8)
  std::vector<RegionFigures> regions;  // empty without regions
  bool covered = false;                // covered_ratio of the grid's cells flat (grid only)
  bool operator==(const HealthFigures&) const = default;
};

enum class HealthEventType {
  kBlackStart,
  kBlackEnd,
  kFreezeStart,
  kFreezeEnd,
  kSceneChange,
  kCoveredStart,
  kCoveredEnd,
  // A network source's stream went away (start_ns: when it was found gone) and came back
  // (start_ns to end_ns, the first frame's arrival: the outage). Times on CLOCK_MONOTONIC.
  kCameraOffline,
  kCameraOnline
};
// "black_start", "black_end", "freeze_start", "freeze_end", "scene_change", "covered_start",
// "covered_end", "camera_offline", "camera_online".
ESF_API const char* healthEventName(HealthEventType type);

// An event, reported with the frame that shows it. Times are the frames' ts_ns.
struct HealthEvent {
  HealthEventType type = HealthEventType::kSceneChange;
  uint64_t seq = 0;       // the frame that reports it
  uint64_t ts_ns = 0;     // that frame's time
  uint64_t start_ns = 0;  // black, freeze, covered: the interval's first frame
  uint64_t end_ns = 0;    // *_end: the first frame after the interval (black and covered at the
                          // end of a run: its last frame, as blackdetect ends it)
  double score = 0;       // scene_change: the scene score
  bool operator==(const HealthEvent&) const = default;
};

}  // namespace esf
