#pragma once
// The boundary between libesframe and libesframe-libcamera.so, the module that holds everything
// that includes libcamera's headers (libcamera_camera, _controls, _source, _info). libesframe
// loads it on the first libcamera spec or `esframe info` (capture/libcamera_loader.cpp), so runs
// without a libcamera camera never load libcamera. Same compiler, same libesframe: C++ types
// cross it; errors cross as Result, never as exceptions.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/pixel_format.hpp"
#include "base/shared_module.hpp"
#include "capture/open_source.hpp"
#include "esframe/base/log.hpp"

namespace esf {

// What the module uses of libesframe, handed to its entry point by the loader. libesframe.so
// exports its public API only (-fvisibility=hidden), and the module links no libesframe: its
// calls to these functions go through this table (capture/libcamera_host.cpp), so they reach the
// one libesframe that loaded it, shared library or an executable's static copy, and its one log
// state (level and handler). Linking these objects into the module instead would give it a
// second log state, and dragged in their dependencies.
struct LibcameraHost {
  void (*log_line)(LogLevel level, std::string_view message);
  const char* (*format_name)(PixelFormat format);
  bool (*is_compressed)(PixelFormat format);
  uint32_t (*drm_fourcc)(PixelFormat format);
  std::optional<PixelFormat> (*from_drm_fourcc)(uint32_t fourcc);
  Result<std::vector<PlaneSlice>> (*v4l2_plane_slices)(PixelFormat format, int height,
                                                       int bytes_per_line);
  std::string (*colorimetry_name)(const Colorimetry& c);
  Result<std::string> (*camera_id)(const std::string& spec);
};

struct LibcameraModule {
  Result<std::unique_ptr<FrameSource>> (*open_source)(const std::string& spec,
                                                      const SourceOptions& options);
  nlohmann::json (*describe_cameras)();
  std::string (*cameras_text)(const nlohmann::json& cameras);
};

inline constexpr const char kLibcameraModuleFile[] = "libesframe-libcamera.so";
inline constexpr const char kLibcameraModuleEntry[] = "esf_libcamera_module_v3";

// The module's side of capture/libcamera_source.hpp, under names of their own (the module's calls
// must not bind to libesframe's loader functions of the same name).
namespace libcamera_module {
Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions& options);
nlohmann::json describeLibcameraCameras();
std::string libcameraCamerasText(const nlohmann::json& cameras);
// The host its entry point was given (libcamera_host.cpp calls through it).
extern const LibcameraHost* g_host;
}  // namespace libcamera_module

}  // namespace esf

// The module's one exported entry point: keeps `host` (valid for the process's lifetime) and
// returns the table above, valid as long.
extern "C" ESF_MODULE_ENTRY const esf::LibcameraModule* esf_libcamera_module_v3(
    const esf::LibcameraHost* host);
