#include "core/pipeline/frame_plan.hpp"

#include "base/enum_names.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {

FramePlanInputs FramePlanInputs::of(const PipelineConfig& config, PixelFormat format,
                                    PlanExecutor executor) {
  FramePlanInputs in;
  in.executor = executor;
  in.format = format;
  in.channels = config.histogram.channels;
  in.bins = config.histogram.bins;
  in.luma = config.luma;
  in.blur = config.blur.has_value();
  in.resize = config.resize.has_value();
  in.health = config.health.has_value();
  in.image_needed = config.image_needed;
  in.scopes = config.scopes.any();
  in.waveform = config.scopes.waveform;
  return in;
}

bool hasLumaPlane(PixelFormat format) {
  const PixelFormatInfo& info = pixelFormatInfo(format);
  return info.y.present() && info.packing != Packing::kCompressed && !isBayer(format);
}

bool FramePlan::has(PassKind kind) const {
  return find(kind) != nullptr;
}

const PlanPass* FramePlan::find(PassKind kind) const {
  for (const PlanPass& p : passes)
    if (p.kind == kind) return &p;
  return nullptr;
}

namespace {

constexpr EnumName<PassKind> kPassNames[] = {
    {PassKind::kImport, "import"},
    {PassKind::kDemosaic, "demosaic"},
    {PassKind::kImportCount, "import+count"},
    {PassKind::kHealth, "health"},
    {PassKind::kBlur, "blur"},
    {PassKind::kResize, "resize"},
    {PassKind::kPack, "pack"},
    {PassKind::kHistogram, "histogram"},
    {PassKind::kHistogram256, "histogram256"},
    {PassKind::kScale, "scale"},
    {PassKind::kScopes, "scopes"},
};

constexpr EnumName<PlanData> kPlanDataNames[] = {
    {PlanData::kHostFrame, "frame"}, {PlanData::kHostRows, "rows"},   {PlanData::kImage, "image"},
    {PlanData::kPacked, "packed"},   {PlanData::kHealthSums, "sums"}, {PlanData::kCounts, "counts"},
    {PlanData::kScales, "scales"},
};

}  // namespace

const char* passName(PassKind kind) {
  return nameIn(kPassNames, kind);
}

const char* planDataName(PlanData data) {
  return nameIn(kPlanDataNames, data);
}

std::string FramePlan::describe() const {
  std::string out = executor == PlanExecutor::kGpu ? "gles " : "cpu ";
  out += format_name;
  out += ':';
  for (size_t i = 0; i < passes.size(); ++i) {
    const PlanPass& p = passes[i];
    out += i ? ", " : " ";
    out.append(passName(p.kind)).append(" ");
    out.append(planDataName(p.reads)).append("->").append(planDataName(p.writes));
    if (p.lanes == 2) out += " x2";
  }
  if (source_luma) out += "; L from the source's luma";
  if (luma_is_rgb && import_writes_luma) out += " (the RGB image's own)";
  if (!result_image) out += "; no RGBA result";
  return out;
}

namespace {

// The GPU: every stage a pass of its own; packed buffers where the histogram counts them.
void planGpu(const FramePlanInputs& in, FramePlan& plan) {
  const bool bayer = plan.bayer;
  const bool luma_plane = hasLumaPlane(in.format);
  // The scopes read the buffer the histogram reads where no blur or resize comes before them:
  // they then need no image (an RGBA frame in host memory is copied into the packed buffer, not
  // uploaded to a texture). After a blur or resize they read the processed image.
  const bool scopes_read_packed = in.scopes && in.histogram_reads_packed && !in.blur && !in.resize;
  // Straight into packed buffers, no RGBA image at all: every stage after the import reads
  // packed buffers and no sink reads the image (a Bayer frame is demosaiced into an image).
  const bool image_kept = in.image_needed || (in.scopes && !scopes_read_packed);
  const bool imports_packed = in.histogram_reads_packed && !in.resize && !image_kept && !bayer &&
                              (!in.blur || in.blur_has_packed_form) &&
                              (!in.health || in.health_accepts_packed);
  // The blur writes the histogram's packed buffer itself: no pack pass.
  const bool blur_packs =
      in.blur && in.histogram_reads_packed && !in.resize && !image_kept && in.blur_has_packed_form;
  const int lanes = plan.source_luma ? 2 : 1;
  plan.import_writes_luma = luma_plane && (plan.source_luma || in.health);
  plan.health_from_rgb = !luma_plane;

  PlanData current = imports_packed ? PlanData::kPacked : PlanData::kImage;
  if (bayer)
    plan.passes.push_back({PassKind::kDemosaic, PlanData::kHostFrame, PlanData::kImage, 1});
  else
    plan.passes.push_back(
        {PassKind::kImport, PlanData::kHostFrame, current, plan.import_writes_luma ? 2 : 1});
  if (in.health) plan.passes.push_back({PassKind::kHealth, current, PlanData::kHealthSums, 1});
  if (in.blur) {
    const PlanData out = imports_packed || blur_packs ? PlanData::kPacked : PlanData::kImage;
    plan.passes.push_back({PassKind::kBlur, current, out, lanes});
    current = out;
  }
  if (in.resize) plan.passes.push_back({PassKind::kResize, current, PlanData::kImage, lanes});
  if (in.histogram_reads_packed && current == PlanData::kImage) {
    plan.passes.push_back({PassKind::kPack, PlanData::kImage, PlanData::kPacked, lanes});
    current = PlanData::kPacked;
  }
  plan.passes.push_back({PassKind::kHistogram, current, PlanData::kCounts, lanes});
  if (in.bins != kValueCount)
    plan.passes.push_back({PassKind::kHistogram256, current, PlanData::kCounts, lanes});
  if (in.scopes)
    plan.passes.push_back({PassKind::kScopes,
                           scopes_read_packed ? PlanData::kPacked : PlanData::kImage,
                           PlanData::kCounts, lanes});
  plan.passes.push_back({PassKind::kScale, PlanData::kCounts, PlanData::kScales, 1});
  plan.result_image = !imports_packed && !blur_packs;
}

// The CPU executor: without blur or resize, import and histogram are one pass over the rows
// (the health sums of each row added on the same thread); otherwise, or for the scopes (which
// read the whole processed image), stage by stage on images.
void planCpu(const FramePlanInputs& in, FramePlan& plan) {
  const bool bayer = plan.bayer;
  const int lanes = plan.source_luma ? 2 : 1;
  plan.import_writes_luma = plan.source_luma;
  plan.health_from_rgb = !hasLumaPlane(in.format);
  if (!in.blur && !in.resize && !in.scopes) {
    bool rgb_counted = false;
    for (char c : in.channels) rgb_counted |= c != 'l' || !plan.source_luma;
    if (plan.source_luma && !in.image_needed && !rgb_counted)
      plan.count_mode = CountMode::kLumaOnly;
    else if (!in.image_needed && !bayer)
      plan.count_mode = CountMode::kRows;
    else
      plan.count_mode = CountMode::kImage;
    const PlanData rows =
        plan.count_mode == CountMode::kImage ? PlanData::kImage : PlanData::kHostRows;
    plan.passes.push_back({PassKind::kImportCount, PlanData::kHostFrame, PlanData::kCounts, lanes});
    if (in.health) plan.passes.push_back({PassKind::kHealth, rows, PlanData::kHealthSums, 1});
    plan.passes.push_back({PassKind::kHistogram, PlanData::kCounts, PlanData::kCounts, lanes});
    plan.passes.push_back({PassKind::kScale, PlanData::kCounts, PlanData::kScales, 1});
    plan.result_image = plan.count_mode == CountMode::kImage;
    return;
  }
  plan.passes.push_back({bayer ? PassKind::kDemosaic : PassKind::kImport, PlanData::kHostFrame,
                         PlanData::kImage, lanes});
  if (in.health)
    plan.passes.push_back({PassKind::kHealth, PlanData::kImage, PlanData::kHealthSums, 1});
  if (in.blur) plan.passes.push_back({PassKind::kBlur, PlanData::kImage, PlanData::kImage, lanes});
  if (in.resize)
    plan.passes.push_back({PassKind::kResize, PlanData::kImage, PlanData::kImage, lanes});
  plan.passes.push_back({PassKind::kHistogram, PlanData::kImage, PlanData::kCounts, lanes});
  if (in.scopes)
    plan.passes.push_back({PassKind::kScopes, PlanData::kImage, PlanData::kCounts, lanes});
  plan.passes.push_back({PassKind::kScale, PlanData::kCounts, PlanData::kScales, 1});
}

}  // namespace

FramePlan planFrame(const FramePlanInputs& in) {
  FramePlan plan;
  plan.executor = in.executor;
  plan.format = in.format;
  plan.format_name = formatName(in.format);
  plan.yuv = isYuv(in.format);
  plan.bayer = isBayer(in.format);
  const bool wants_source_luma =
      in.luma == LumaSource::kSource && (in.channels.find('l') != std::string::npos || in.waveform);
  plan.source_luma = wants_source_luma && hasLumaPlane(in.format);
  plan.source_luma_missing = wants_source_luma && !plan.source_luma;
  plan.luma_is_rgb = pixelFormatInfo(in.format).colour == ColourFamily::kGrey;
  if (in.executor == PlanExecutor::kGpu)
    planGpu(in, plan);
  else
    planCpu(in, plan);
  return plan;
}

}  // namespace esf
