// The auto-exposure loop as a sink (esframe/auto_exposure.hpp): annotate() measures the frame,
// moves the camera's controls and reports them in the frame; finish() restores the camera.
#include <string_view>

#include "base/api_guard.hpp"
#include "core/control/exposure_loop.hpp"
#include "core/control/v4l2_camera_controls.hpp"

namespace esf {
namespace {

constexpr std::string_view kWhat = "auto-exposure";

class AutoExposureSink : public FrameSink {
 public:
  AutoExposureSink(std::unique_ptr<V4l2CameraControls> camera, std::unique_ptr<ExposureLoop> loop,
                   ExposureMetric metric)
      : camera_(std::move(camera)), loop_(std::move(loop)), metric_(metric) {}
  ~AutoExposureSink() override { loop_.reset(); }  // restores before the camera's fd closes

  Status annotate(FrameResult& frame) override {
    const size_t l = frame.hist.channels.find('l');
    if (l == std::string::npos || l >= frame.stats.size())
      return fail(ErrorCode::kInvalidArgument, kWhat,
                  ": needs the l channel in the histogram's channels");
    if (frame.stats[l].count == 0) return Status::success();
    Result<AutoExposureState> state = loop_->step(exposureMeasure(frame.stats[l], metric_));
    if (!state) return state.error();
    frame.auto_exposure = std::move(state.value());
    return Status::success();
  }
  Status write(const FrameResult&) override { return Status::success(); }
  Status finish() override { return loop_->restore(); }

 private:
  std::unique_ptr<V4l2CameraControls> camera_;
  std::unique_ptr<ExposureLoop> loop_;
  ExposureMetric metric_;
};

Result<std::unique_ptr<FrameSink>> makeAutoExposure(const std::string& device,
                                                    const AutoExposureOptions& options) {
  Result<std::unique_ptr<V4l2CameraControls>> camera = V4l2CameraControls::open(device);
  if (!camera) return camera.error();
  Result<std::unique_ptr<ExposureLoop>> loop = ExposureLoop::create(**camera, options);
  if (!loop) return loop.error();
  return std::unique_ptr<FrameSink>(
      new AutoExposureSink(std::move(camera.value()), std::move(loop.value()), options.metric));
}

}  // namespace

Result<std::unique_ptr<FrameSink>> createAutoExposure(const std::string& device,
                                                      const AutoExposureOptions& options) {
  return guardedSink(guard("auto-exposure", [&] { return makeAutoExposure(device, options); }),
                     "auto-exposure");
}

}  // namespace esf
