#pragma once
// ffmpeg 5.1's cropdetect on the host (esframe/detectors.hpp, docs/output-formats.md,
// "Detectors"): each frame after the skipped ones widens the box outside which rows and columns
// are black, from the top, bottom, left and right, and reports it and its rounded crop.
#include <optional>

#include "core/stats/ffmpeg_planes.hpp"
#include "esframe/detectors.hpp"

namespace esf {

class CropDetector {
 public:
  explicit CropDetector(const CropDetectConfig& config);
  // nullopt for the skipped frames. A new size starts the box again, as ffmpeg's reconfigured
  // filter does.
  std::optional<CropDetectFigures> detect(const FfmpegPlanes& frame);

 private:
  // The integer mean of line `index` (a row, or a column when `columns`), R + G + B counting as
  // three values for RGB; ffmpeg's checkline.
  int lineMean(const FfmpegPlanes& frame, bool columns, int index) const;

  CropDetectConfig config_;
  int round_;
  int frame_number_;  // ffmpeg's frame_nb: -skip before the first frame
  int width_ = -1, height_ = -1;
  int x1_ = 0, y1_ = 0, x2_ = 0, y2_ = 0;
};

}  // namespace esf
