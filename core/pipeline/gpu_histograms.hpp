#pragma once
// The GPU backend's histograms of a frame (PipelineConfig::histogram): its bins over the user's
// channels and, where those are not 256, the 256 values the exposure figures need, each a
// GpuHistogramCounter. For each output size their parameters are strategy=auto's choice or the
// configured strategy; where a counter refuses auto's choice for a size (a driver limit the
// choice did not know), the stage's defaults, said once.
#include <optional>

#include "core/image/gpu_image.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/pipeline/gpu_histogram_counter.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuHistograms {
 public:
  GpuHistograms(const HistogramConfig& config, LumaSource luma) : config_(config), luma_(luma) {}
  // The counters for out_w x out_h images, and the packer where they read packed buffers.
  Status configure(const GlContext& gl, int out_w, int out_h);
  // Whether the counters read packed buffers (the plan packs the image for them).
  bool readsPacked() const { return reads_packed_; }
  // Image to packed buffer, made where readsPacked().
  RgbaPacker& packer() { return *packer_; }
  // The bins (the values: the 256 values' counter) on the frame's RGB and luma lanes.
  Status dispatch(bool values, const GpuImage* rgb, const PackedRgbaBuffer* rgb_packed,
                  const GpuImage* luma, const PackedRgbaBuffer* luma_packed);
  // After the frame's GPU work: lists the counts in its read-back.
  void addReadback(FrameReadback& readback);
  // After the read-back: the bins into `bins` and the 256 values into `values` (the bins
  // themselves at 256 bins).
  Status collect(const FrameReadback& readback, HistogramData& bins, HistogramData& values);
  // The SSBO with the bins' counts (GpuHistogramCounter::buffer()).
  GLuint buffer() const { return binned_.buffer(); }
  // Wall time the counters' own reads waited for the GPU since the last call.
  double takeReadbackMs() { return binned_.takeReadbackMs() + values_.takeReadbackMs(); }

 private:
  HistogramConfig config_;
  LumaSource luma_;
  GpuHistogramCounter binned_, values_;
  std::optional<RgbaPacker> packer_;
  bool reads_packed_ = false;
  bool auto_refused_ = false;  // strategy=auto's choice failed once: use the stage defaults
  size_t binned_at_ = 0, values_at_ = 0;  // the frame's slots in the read-back
};

}  // namespace esf
