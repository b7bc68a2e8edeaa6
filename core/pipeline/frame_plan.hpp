#pragma once
// The passes one frame goes through, decided once per configuration and pixel format, not per
// frame: what each pass reads and what it writes. Both the GPU backend and the CPU executor walk
// a plan from planFrame(); neither decides the order of its stages on its own.
//
// A pass works on one lane or two: lane 0 is the RGB working image, lane 1 the source's luma
// (LumaSource::kSource: R = G = B = the frame's Y bytes), which every pass after the import
// carries beside lane 0 when the histogram's L is counted from it.
#include <string>
#include <vector>

#include "base/pixel_format.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

enum class PlanExecutor { kGpu, kCpu };

// What a pass reads or writes.
enum class PlanData {
  kHostFrame,   // the captured frame's planes (host memory or dmabufs)
  kHostRows,    // rows converted on the CPU and counted while in cache, no whole image kept
  kImage,       // an RGBA8 image (a texture on the GPU, a host image on the CPU)
  kPacked,      // a packed RGBA buffer, one 32-bit word a pixel (GPU storage buffer)
  kHealthSums,  // the frame difference's and Sobel pass's sums
  kCounts,      // histogram counts
  kScales,      // the histogram's display scales
};

enum class PassKind {
  kImport,        // the frame's planes converted to RGBA (and the source luma)
  kDemosaic,      // a Bayer frame: values unpacked on the host, raw statistics, demosaiced
  kImportCount,   // CPU: import and histogram in one pass over each stripe of rows
  kHealth,        // camera health: the frame difference and the Sobel pass
  kBlur,          // separable box blur
  kResize,        // area-average downscale
  kPack,          // RGBA image -> packed buffer, for a histogram that reads packed buffers
  kHistogram,     // the configured bins
  kHistogram256,  // the 256 values the statistics need, when the configured bins are fewer
  kScale,         // the histogram's display scales
  kScopes,        // waveform, parade, vectorscope counts (PipelineConfig::scopes)
};

struct PlanPass {
  PassKind kind;
  PlanData reads;
  PlanData writes;
  int lanes = 1;  // 2: lane 1 (the source's luma) goes through this pass beside lane 0
};

// How kImportCount treats the converted rows.
enum class CountMode {
  kImage,     // the RGBA image is written (a sink reads it, or a Bayer frame's demosaic)
  kRows,      // each row is counted from a scratch row; no image
  kLumaOnly,  // only L from the Y bytes: nothing is converted
};

// What the plan is made from: the configuration, the frame's format, and what the stages chosen
// for this device and size can do.
struct FramePlanInputs {
  PlanExecutor executor = PlanExecutor::kGpu;
  PixelFormat format = PixelFormat::kRGBA32;
  std::string channels = "rgbl";
  int bins = 256;
  LumaSource luma = LumaSource::kRgb;
  bool blur = false;
  bool resize = false;
  bool health = false;
  bool image_needed = true;  // a sink reads the RGBA result
  // PipelineConfig::scopes: a scope is counted (GPU: from the histogram's packed buffer where
  // no blur or resize comes first, else from the processed image, which is then kept);
  // waveform: the waveform's L comes from lane 1 as the histogram's does.
  bool scopes = false;
  bool waveform = false;
  // GPU only: the stages' chosen forms.
  bool histogram_reads_packed = false;  // the histogram counts a packed buffer
  bool blur_has_packed_form = false;    // the blur can write (and read) packed buffers
  bool health_accepts_packed = false;   // the health stages can read a packed frame

  static FramePlanInputs of(const PipelineConfig& config, PixelFormat format,
                            PlanExecutor executor);
};

struct FramePlan {
  PlanExecutor executor = PlanExecutor::kGpu;
  PixelFormat format = PixelFormat::kRGBA32;
  // Read from the format table with the plan, for the frames' own use: its name (for errors),
  // whether it is YUV (its chroma planes give the vectorscope and signalstats), and whether
  // Bayer (demosaiced, with the setup of core/pipeline/bayer_frame.hpp).
  const char* format_name = "";
  bool yuv = false;
  bool bayer = false;
  std::vector<PlanPass> passes;
  // Lane 1 carries the source's luma (LumaSource::kSource, a frame with Y bytes, and an L channel
  // or a waveform to count on it).
  bool source_luma = false;
  // The source's luma was asked for but the frame has none: L comes from RGB (said once).
  bool source_luma_missing = false;
  // The import writes lane 1: for the histogram's L, or for the health stages' luma.
  bool import_writes_luma = false;
  // GREY: the luma lane is the RGB lane's own pixels (the importer writes one image for both).
  bool luma_is_rgb = false;
  // The health stages compute luma from RGB (the frame has no Y bytes); else they read lane 1.
  bool health_from_rgb = false;
  // The frame's result carries its RGBA image (FrameResult::image, the GPU view's texture).
  bool result_image = true;
  CountMode count_mode = CountMode::kImage;  // kImportCount only

  bool has(PassKind kind) const;
  const PlanPass* find(PassKind kind) const;
  // One line: "import host->image x2, health image->sums, ...".
  std::string describe() const;
};

// Whether `format`'s frames carry Y bytes of their own (YUV, GREY; not RGB, Bayer or MJPEG).
bool hasLumaPlane(PixelFormat format);

FramePlan planFrame(const FramePlanInputs& in);

const char* passName(PassKind kind);  // also the stage timer's name: "import", "blur", ...
const char* planDataName(PlanData data);

}  // namespace esf
