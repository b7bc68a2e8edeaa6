#pragma once
// The GPU backend's histogram at one bin count over the user's channels. With a source-luma
// image (LumaSource::kSource), L is counted on that image and the other channels on the RGB
// image; buffer() then holds them in the user's order for the scale stage and the graph.
//
// Counting is two calls, so that a frame loop can read the next frame while the GPU counts:
// dispatch() only queues GPU work, readFrom() takes the words the frame's read-back brought. The
// one exception is a split luma with RGB channels too: the two halves are interleaved on the
// CPU, so dispatch() reads them at once.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/stages/histogram.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/histogram_data.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

class GlContext;
class GpuImage;
class PackedRgbaBuffer;

class GpuHistogramCounter {
 public:
  // split_luma: LumaSource::kSource, so L may be counted on its own image.
  Status configure(const GlContext& gl, const HistogramParams& params, bool split_luma);

  // Queues the counts; no luma (image or buffer): every channel from the RGB frame. The packed
  // buffers are read when the parameters read one (ImageSource::kPackedBuffer), the images
  // otherwise; a frame imported packed has no image (null).
  Status dispatch(const GpuImage* rgb, const PackedRgbaBuffer* rgb_packed, const GpuImage* luma,
                  const PackedRgbaBuffer* luma_packed);
  // The words the last dispatch() left to read back (none where it read them itself), which a
  // frame's read-back maps with the other stages' results; then its counts from those words, in
  // the user's channel order.
  GpuWords pendingWords() const;
  Result<HistogramData> readFrom(std::span<const uint32_t> words);

  // Every histogram's Histogram::fitFrame for width x height images.
  Status fitFrame(int width, int height);
  // The SSBO with the counts of the last dispatch() (uint counts[bins * channels]).
  GLuint buffer() const { return buffer_; }
  // Wall time the reads have waited for the GPU since the last call.
  double takeReadbackMs();

 private:
  enum class Pending { kNone, kWhole, kLumaOnly, kMerged };
  Result<std::vector<uint32_t>> timedRead(const Histogram& h);
  Status runOne(Histogram& h, const GpuImage* image, const PackedRgbaBuffer* packed);

  HistogramParams params_;
  std::optional<Histogram> rgb_, rgb_split_, l_;
  std::string rgb_only_;
  GlBuffer merged_;
  GLuint buffer_ = 0;
  Pending pending_ = Pending::kNone;
  HistogramData merged_counts_;
  double readback_ms_ = 0;
};

}  // namespace esf
