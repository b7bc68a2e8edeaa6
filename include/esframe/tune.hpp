#pragma once
// Tuning a GPU: the stages' strategies and workgroup sizes swept on one frame size, and the GLES
// stages timed against the CPU executor per stage chain; the fastest go into the tuning cache
// (esframe/tuning.hpp) that strategy=auto and Backend::kAuto read, and the selftest then checks
// what strategy=auto picks against the CPU references (a fast configuration that counts wrong
// must not be trusted), its verdict stored beside them.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/gpu.hpp"
#include "esframe/pipeline_config.hpp"
#include "esframe/tuning.hpp"

namespace esf {

struct TuneRequest {
  int width = 1920;  // the frame size tuned for (its size class gets the records)
  int height = 1080;
  // The sources' pixel format for the backend comparison, whose whole frames include the import;
  // the stages run on the RGBA working image either way.
  PixelFormat format = PixelFormat::kRGBA32;
  FrameContent content = FrameContent::kNatural;
  bool histogram = true;   // sweep the histogram's strategies and workgroup sizes
  bool blur = true;        // sweep the blur's
  bool backend = false;    // time each stage chain on the GLES stages and on the CPU executor
  int iterations = 15;     // timed runs per configuration
  bool quick = false;      // a few configurations per sweep and a quick selftest
  std::string cache_path;  // "" for defaultTuningCachePath()
};

// The fastest configuration a sweep found.
struct TuneMeasurement {
  std::string stage;  // "histogram", "blur"
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int samples = 0;
  bool gpu_timer = false;  // GPU time (GL_EXT_disjoint_timer_query), else wall clock
  std::string choice;      // the parameters: "persistent buffer wg=64 ..."
};

// A stage chain's whole frames through the GLES stages and through the CPU executor.
struct BackendMeasurement {
  std::string chain;                // "histogram", "blur+histogram", "resize+histogram"
  double gles_ms = 0, cpu_ms = 0;   // median per frame
  Backend faster = Backend::kGles;  // kGles or kCpu: what Backend::kAuto now picks for it
};

struct TuneReport {
  std::string gl_vendor, gl_renderer, gl_version;  // the GPU and driver tuned
  std::string size_class;                          // of the request's frame size
  std::string cache_path;
  std::string cache_warning;  // what was wrong with the cache file read before (rewritten)
  std::vector<TuneMeasurement> stages;
  std::vector<BackendMeasurement> backends;
  // The selftest of what strategy=auto picks now, at the tuned size.
  bool selftest_passed = false;
  size_t selftest_checks = 0;
  double selftest_seconds = 0;
  std::string selftest_first_failure;  // "" when passed
};

// Each step as it happens: a tuning run takes minutes.
struct TuneObserver {
  // The GPU, the size class and the cache read; nothing measured yet.
  std::function<void(const TuneReport&)> started;
  std::function<void(const TuneMeasurement&)> measured;
  std::function<void(const BackendMeasurement&)> compared;
  // The measurements written to the cache, before the selftest.
  std::function<void(const TuneReport&)> saved;
};

// Tunes `gpu` (its context current on this thread) as `request` asks; the backend comparison's
// pipelines open their own contexts with gpu.config(). A selftest that fails is
// TuneReport::selftest_passed false, not an error: the records and the verdict are stored.
ESF_API Result<TuneReport> tune(GpuContext& gpu, const TuneRequest& request,
                                const TuneObserver& observer = {});

}  // namespace esf
