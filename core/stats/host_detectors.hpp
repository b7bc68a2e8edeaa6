#pragma once
// PipelineConfig::detect: ffmpeg's cropdetect, blurdetect and blockdetect of each frame, on the
// host from the source's own planes (ffmpeg_planes.hpp). Every backend gives its frames to the
// same counter (core/pipeline/pipeline.cpp), so the figures are the same on each.
#include <optional>

#include "core/stats/blockdetect.hpp"
#include "core/stats/blurdetect.hpp"
#include "core/stats/cropdetect.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

// The detectors a backend counted itself, which the host then leaves alone (their state too).
struct DetectorsCounted {
  bool blur = false, block = false;
};

struct DetectFigures {
  std::optional<CropDetectFigures> crop;
  std::optional<float> blur, block;
  DetectorsCounted counted;  // by the backend: the result's figures are already there
  // Into the result's members of the same names (but those the backend counted).
  void moveInto(FrameResult& result);
};

class HostDetectors {
 public:
  explicit HostDetectors(const DetectConfig& config);
  // None for frames ffmpeg's filters do not take as they are (Bayer, compressed, deeper than 8
  // bits) or without CPU-visible planes; such frames leave every detector's state as it was.
  DetectFigures count(const Frame& frame, DetectorsCounted counted = {});

 private:
  std::optional<CropDetector> crop_;
  std::optional<BlurDetector> blur_;
  std::optional<BlockDetector> block_;
  int blur_planes_ = 0, block_planes_ = 0;  // their configs' bit masks
};

}  // namespace esf
