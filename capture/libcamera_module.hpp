#pragma once
// The boundary between libesframe and libesframe-libcamera.so, the module that holds everything
// that includes libcamera's headers (libcamera_camera, _controls, _source, _info). libesframe
// loads it on the first libcamera spec or `esframe info` (capture/libcamera_loader.cpp), so runs
// without a libcamera camera never load libcamera. Same compiler, same libesframe: C++ types
// cross it; errors cross as Result, never as exceptions.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "capture/source.hpp"

namespace esf {

struct LibcameraModule {
  Result<std::unique_ptr<FrameSource>> (*open_source)(const std::string& spec,
                                                      const SourceOptions& options);
  nlohmann::json (*describe_cameras)();
  std::string (*cameras_text)(const nlohmann::json& cameras);
};

inline constexpr const char kLibcameraModuleFile[] = "libesframe-libcamera.so";
inline constexpr const char kLibcameraModuleEntry[] = "esf_libcamera_module_v1";

// The module's side of capture/libcamera_source.hpp, under names of their own (the module's calls
// must not bind to libesframe's loader functions of the same name).
namespace libcamera_module {
Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions& options);
nlohmann::json describeLibcameraCameras();
std::string libcameraCamerasText(const nlohmann::json& cameras);
}  // namespace libcamera_module

}  // namespace esf

// The module's one exported entry point: the table above, valid for the process's lifetime.
extern "C" const esf::LibcameraModule* esf_libcamera_module_v1();
