#pragma once
// libcamera cameras as frame sources: "libcamera" (the first camera libcamera lists) or
// "libcamera:ID" (a camera id as `esframe info` or `cam -l` prints it). Optional at build time
// (-DESFRAME_LIBCAMERA): without it these exist and say that support was not built.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "capture/open_source.hpp"

namespace esf {

// Whether this build has libcamera support.
bool libcameraSupportBuilt();
// Whether libcamera can be used now: built with it, and its module (libesframe-libcamera.so,
// capture/libcamera_module.hpp) loads. Loads it; kUnsupported saying why not.
Status loadLibcameraSupport();

// Whether `spec` names a libcamera camera ("libcamera" or "libcamera:ID").
bool isLibcameraSpec(const std::string& spec);
// The camera id in a libcamera spec: "" for the first camera. Fails on "libcamera:" (no id).
Result<std::string> libcameraCameraId(const std::string& spec);

// Size, format (libcamera names DRM fourccs), fps (FrameDurationLimits) and controls (libcamera
// control names: "Brightness=0.5") map onto the camera's StreamConfiguration and ControlList.
// I/O: mmap maps libcamera's own buffers; expbuf hands their dmabufs to the GPU (refused where
// the GPU cannot import foreign dmabufs: llvmpipe); dmabuf queues buffers allocated on the GPU's
// device (options.dmabuf_allocator) for the camera to fill; auto is expbuf where the GPU imports
// foreign dmabufs, else mmap. Without libcamera support: ErrorCode::kUnsupported.
Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions& options);

// `esframe info`'s libcamera section: each camera with its streams, formats, sizes and controls.
nlohmann::json describeLibcameraCameras();
std::string libcameraCamerasText(const nlohmann::json& cameras);

}  // namespace esf
