// The frame plan (core/pipeline/frame_plan.hpp) for every combination of source format, luma
// source, channels, bins, blur, resize, health, sinks that read the image and the GPU stages'
// chosen forms, on both executors: no GPU needed. Each plan is checked against rules written
// here from the stages' contracts, and a few whole plans against their text written out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "base/pixel_format.hpp"
#include "core/pipeline/frame_plan.hpp"

namespace esf {
namespace {

// The formats whose frames carry Y bytes (YUV and GREY), listed by name, not by the table the
// planner reads.
bool carriesLuma(PixelFormat format) {
  static const std::set<std::string> names = {"YUYV", "UYVY",    "NV12",    "NV21",
                                              "YU12", "YUV422P", "YUV444P", "GREY"};
  return names.count(formatName(format)) != 0;
}
bool isRaw(PixelFormat format) {  // SRGGB8, SBGGR10P, ...: the V4L2 Bayer names
  const std::string name = formatName(format);
  return name.size() > 5 && name[0] == 'S' && name.find_first_not_of("RGB", 1) == 5;
}

// Where each pass may stand: a pass never follows one of a later rank.
int rank(PassKind kind) {
  switch (kind) {
    case PassKind::kImport:
    case PassKind::kDemosaic:
    case PassKind::kImportCount:
      return 0;
    case PassKind::kHealth:
      return 1;
    case PassKind::kBlur:
      return 2;
    case PassKind::kResize:
      return 3;
    case PassKind::kPack:
      return 4;
    case PassKind::kHistogram:
      return 5;
    case PassKind::kHistogram256:
      return 6;
    case PassKind::kScopes:
      return 7;
    case PassKind::kScale:
      return 8;
  }
  return -1;
}

bool isPixels(PlanData d) {
  return d == PlanData::kImage || d == PlanData::kPacked || d == PlanData::kHostRows;
}

void checkPlan(const FramePlanInputs& in, const FramePlan& plan) {
  SCOPED_TRACE(plan.describe());
  const bool gpu = in.executor == PlanExecutor::kGpu;
  const bool wants_source_luma =
      in.luma == LumaSource::kSource && (in.channels.find('l') != std::string::npos || in.waveform);
  const bool source_luma = wants_source_luma && carriesLuma(in.format);
  EXPECT_EQ(plan.source_luma, source_luma);
  EXPECT_EQ(plan.source_luma_missing, wants_source_luma && !source_luma);
  EXPECT_EQ(plan.health_from_rgb, !carriesLuma(in.format));
  const int lanes = source_luma ? 2 : 1;
  // The GPU's scopes read the histogram's packed buffer where no blur or resize comes first.
  const bool scopes_read_packed =
      gpu && in.scopes && in.histogram_reads_packed && !in.blur && !in.resize;

  ASSERT_GE(plan.passes.size(), 3u);
  EXPECT_EQ(plan.passes.front().reads, PlanData::kHostFrame);
  EXPECT_EQ(plan.passes.back().kind, PassKind::kScale);
  EXPECT_EQ(plan.passes.back().reads, PlanData::kCounts);

  // The data flow: each pass reads what the last pass before it that made pixels wrote; the
  // health stages read the import's own output, right after it.
  PlanData pixels = PlanData::kHostFrame;
  PlanData imported = PlanData::kHostFrame;
  int last_rank = -1;
  std::multiset<PassKind> kinds;
  for (size_t i = 0; i < plan.passes.size(); ++i) {
    const PlanPass& p = plan.passes[i];
    SCOPED_TRACE(passName(p.kind));
    kinds.insert(p.kind);
    EXPECT_GT(rank(p.kind), last_rank) << "out of order, or twice";
    last_rank = rank(p.kind);
    EXPECT_EQ(p.reads == PlanData::kHostFrame, i == 0);
    EXPECT_NE(p.writes, PlanData::kHostFrame);
    switch (p.kind) {
      case PassKind::kImport:
      case PassKind::kDemosaic:
        EXPECT_TRUE(isPixels(p.writes));
        pixels = imported = p.writes;
        break;
      case PassKind::kImportCount:
        EXPECT_EQ(p.writes, PlanData::kCounts);
        imported = plan.count_mode == CountMode::kImage ? PlanData::kImage : PlanData::kHostRows;
        break;
      case PassKind::kHealth:
        EXPECT_EQ(i, 1u);
        EXPECT_EQ(p.reads, imported);
        EXPECT_EQ(p.writes, PlanData::kHealthSums);
        break;
      case PassKind::kBlur:
      case PassKind::kResize:
      case PassKind::kPack:
        EXPECT_EQ(p.reads, pixels);
        EXPECT_TRUE(isPixels(p.writes));
        EXPECT_EQ(p.lanes, lanes);
        pixels = p.writes;
        break;
      case PassKind::kHistogram:
      case PassKind::kHistogram256:
        if (plan.has(PassKind::kImportCount))
          EXPECT_EQ(p.reads, PlanData::kCounts);  // the counts folded into the bins
        else
          EXPECT_EQ(p.reads, pixels);
        EXPECT_EQ(p.writes, PlanData::kCounts);
        EXPECT_EQ(p.lanes, lanes);
        break;
      case PassKind::kScopes:  // the histogram's packed buffer, else the processed image
        EXPECT_EQ(p.reads, scopes_read_packed ? PlanData::kPacked : PlanData::kImage);
        if (scopes_read_packed) {
          EXPECT_EQ(p.reads, pixels) << "the buffer the histogram reads";
        }
        EXPECT_EQ(p.writes, PlanData::kCounts);
        EXPECT_EQ(p.lanes, lanes);
        break;
      case PassKind::kScale:
        EXPECT_EQ(p.writes, PlanData::kScales);
        break;
    }
  }
  EXPECT_EQ(kinds.count(PassKind::kScopes), in.scopes ? 1u : 0u);
  EXPECT_EQ(kinds.count(PassKind::kBlur), in.blur ? 1u : 0u);
  EXPECT_EQ(kinds.count(PassKind::kResize), in.resize ? 1u : 0u);
  EXPECT_EQ(kinds.count(PassKind::kHealth), in.health ? 1u : 0u);
  EXPECT_EQ(kinds.count(PassKind::kHistogram), 1u);
  const PlanPass& first = plan.passes.front();
  if (in.image_needed) {
    EXPECT_TRUE(plan.result_image) << "a sink reads the image";
  }
  if (in.resize) {
    EXPECT_TRUE(plan.result_image);
  }

  if (gpu) {
    EXPECT_EQ(first.kind, isRaw(in.format) ? PassKind::kDemosaic : PassKind::kImport);
    EXPECT_EQ(first.lanes, carriesLuma(in.format) && (source_luma || in.health) ? 2 : 1);
    EXPECT_EQ(plan.import_writes_luma, first.lanes == 2);
    EXPECT_EQ(kinds.count(PassKind::kHistogram256), in.bins != 256 ? 1u : 0u);
    EXPECT_EQ(kinds.count(PassKind::kImportCount), 0u);
    EXPECT_EQ(plan.find(PassKind::kHistogram)->reads,
              in.histogram_reads_packed ? PlanData::kPacked : PlanData::kImage);
    // A packed import only where nothing after it needs an image.
    if (first.writes == PlanData::kPacked) {
      EXPECT_FALSE(in.image_needed || (in.scopes && !scopes_read_packed) || in.resize ||
                   isRaw(in.format));
      EXPECT_TRUE(!in.health || in.health_accepts_packed);
      EXPECT_TRUE(!in.blur || in.blur_has_packed_form);
      EXPECT_FALSE(plan.has(PassKind::kPack));
    }
    // Where all of them hold, the frame is imported packed (no pack pass to pay for).
    if (in.histogram_reads_packed && !in.image_needed && !(in.scopes && !scopes_read_packed) &&
        !in.resize && !isRaw(in.format) && (!in.blur || in.blur_has_packed_form) &&
        (!in.health || in.health_accepts_packed)) {
      EXPECT_EQ(first.writes, PlanData::kPacked);
    }
    if (const PlanPass* blur = plan.find(PassKind::kBlur);
        blur && blur->writes == PlanData::kPacked) {
      EXPECT_TRUE(in.blur_has_packed_form && in.histogram_reads_packed && !in.image_needed &&
                  !in.scopes);  // the scopes read the blurred image
    }
    EXPECT_EQ(plan.result_image, !(plan.find(PassKind::kHistogram)->reads == PlanData::kPacked &&
                                   !plan.has(PassKind::kPack) && !plan.has(PassKind::kResize)));
  } else {
    const bool fused = !in.blur && !in.resize && !in.scopes;
    EXPECT_EQ(plan.has(PassKind::kImportCount), fused);
    EXPECT_EQ(kinds.count(PassKind::kPack) + kinds.count(PassKind::kHistogram256), 0u);
    for (const PlanPass& p : plan.passes) {
      EXPECT_TRUE(p.reads != PlanData::kPacked && p.writes != PlanData::kPacked);
    }
    if (!fused) {
      EXPECT_EQ(first.kind, isRaw(in.format) ? PassKind::kDemosaic : PassKind::kImport);
    }
    if (fused) {
      const bool only_l = in.channels.find_first_not_of('l') == std::string::npos;
      EXPECT_EQ(plan.count_mode == CountMode::kLumaOnly, source_luma && only_l && !in.image_needed);
      if (in.image_needed || isRaw(in.format)) {
        EXPECT_EQ(plan.count_mode, CountMode::kImage);
      }
      EXPECT_EQ(plan.result_image, plan.count_mode == CountMode::kImage);
    }
  }
}

TEST(FramePlan, EveryCombinationFollowsTheRules) {
  int plans = 0;
  for (PixelFormat format : allPixelFormats()) {
    for (PlanExecutor executor : {PlanExecutor::kGpu, PlanExecutor::kCpu}) {
      for (int bits = 0; bits < (1 << 13); ++bits) {
        FramePlanInputs in;
        in.executor = executor;
        in.format = format;
        in.luma = bits & 1 ? LumaSource::kSource : LumaSource::kRgb;
        in.channels = (bits >> 1 & 3) == 0 ? "rgbl" : (bits >> 1 & 3) == 1 ? "l" : "rgb";
        if ((bits >> 1 & 3) == 3) continue;
        in.bins = bits & 8 ? 64 : 256;
        in.blur = bits & 16;
        in.resize = bits & 32;
        in.health = bits & 64;
        in.image_needed = bits & 128;
        in.histogram_reads_packed = bits & 256;
        in.blur_has_packed_form = bits & 512;
        in.health_accepts_packed = bits & 1024;
        // PipelineConfig::scopes: none, some without the waveform, or the waveform.
        if ((bits >> 11) == 3) continue;
        in.scopes = bits >> 11 != 0;
        in.waveform = bits >> 11 == 2;
        if (executor == PlanExecutor::kCpu && (bits & (256 | 512 | 1024))) continue;
        checkPlan(in, planFrame(in));
        ++plans;
        if (HasFailure()) return;  // one combination's failures are enough to read
      }
    }
  }
  EXPECT_GT(plans, 20000);
}

FramePlanInputs inputs(PlanExecutor executor, PixelFormat format) {
  FramePlanInputs in;
  in.executor = executor;
  in.format = format;
  return in;
}

TEST(FramePlan, GpuPlansWrittenOut) {
  FramePlanInputs in = inputs(PlanExecutor::kGpu, PixelFormat::kRGB24);
  EXPECT_EQ(planFrame(in).describe(),
            "gles RGB24: import frame->image, histogram image->counts, scale counts->scales");

  // Everything packed: the import writes the buffers every later pass reads.
  in = inputs(PlanExecutor::kGpu, PixelFormat::kNV12);
  in.luma = LumaSource::kSource;
  in.blur = in.health = true;
  in.image_needed = false;
  in.histogram_reads_packed = in.blur_has_packed_form = in.health_accepts_packed = true;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->packed x2, health packed->sums, blur packed->packed x2, "
            "histogram packed->counts x2, scale counts->scales; L from the source's luma; "
            "no RGBA result");

  // A sink reads the image: the blur writes an image, a pack pass feeds the histogram.
  in.image_needed = true;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->image x2, health image->sums, blur image->image x2, "
            "pack image->packed x2, histogram packed->counts x2, scale counts->scales; "
            "L from the source's luma");

  // The health stages cannot read packed frames: the import writes images, the blur packs.
  in.image_needed = false;
  in.health_accepts_packed = false;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->image x2, health image->sums, blur image->packed x2, "
            "histogram packed->counts x2, scale counts->scales; L from the source's luma; "
            "no RGBA result");

  // Bayer: demosaiced into an image; the health stages compute luma from RGB.
  in = inputs(PlanExecutor::kGpu, PixelFormat::kSRGGB10);
  in.health = true;
  in.bins = 64;
  in.image_needed = false;
  in.histogram_reads_packed = in.health_accepts_packed = true;
  const FramePlan bayer = planFrame(in);
  EXPECT_EQ(bayer.describe(),
            "gles SRGGB10: demosaic frame->image, health image->sums, pack image->packed, "
            "histogram packed->counts, histogram256 packed->counts, scale counts->scales");
  EXPECT_TRUE(bayer.health_from_rgb);

  // GREY: the luma lane is the RGB image's own; the health stages read it, the L counts too.
  in = inputs(PlanExecutor::kGpu, PixelFormat::kGREY);
  in.luma = LumaSource::kSource;
  in.channels = "l";
  in.resize = true;
  const FramePlan grey = planFrame(in);
  EXPECT_EQ(grey.describe(),
            "gles GREY: import frame->image x2, resize image->image x2, histogram image->counts "
            "x2, scale counts->scales; L from the source's luma (the RGB image's own)");
  EXPECT_TRUE(grey.luma_is_rgb);

  // The scopes with no blur or resize: the packed buffer the histogram reads, no image at all
  // (an RGBA32 frame is copied into the buffer, not uploaded to a texture).
  in = inputs(PlanExecutor::kGpu, PixelFormat::kRGBA32);
  in.scopes = in.waveform = true;
  in.image_needed = false;
  in.histogram_reads_packed = true;
  EXPECT_EQ(planFrame(in).describe(),
            "gles RGBA32: import frame->packed, histogram packed->counts, scopes packed->counts, "
            "scale counts->scales; no RGBA result");
  // Beside the source's luma, the waveform's L from the luma lane's buffer.
  in.format = PixelFormat::kNV12;
  in.luma = LumaSource::kSource;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->packed x2, histogram packed->counts x2, scopes "
            "packed->counts x2, scale counts->scales; L from the source's luma; no RGBA result");
  // A sink reads the image: the scopes still read the packed buffer the pack pass wrote.
  in.luma = LumaSource::kRgb;
  in.image_needed = true;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->image, pack image->packed, histogram packed->counts, scopes "
            "packed->counts, scale counts->scales");
  // After a blur, the blurred image.
  in.image_needed = false;
  in.blur = in.blur_has_packed_form = true;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->image, blur image->image, pack image->packed, histogram "
            "packed->counts, scopes image->counts, scale counts->scales");
  // A histogram that reads textures: the image.
  in.blur = false;
  in.histogram_reads_packed = false;
  EXPECT_EQ(planFrame(in).describe(),
            "gles NV12: import frame->image, histogram image->counts, scopes image->counts, scale "
            "counts->scales");

  // L from the source asked of an RGB frame: from RGB, said by the plan.
  in = inputs(PlanExecutor::kGpu, PixelFormat::kMJPEG);
  in.luma = LumaSource::kSource;
  EXPECT_TRUE(planFrame(in).source_luma_missing);
  EXPECT_EQ(planFrame(in).describe(),
            "gles MJPEG: import frame->image, histogram image->counts, scale counts->scales");
}

TEST(FramePlan, CpuPlansWrittenOut) {
  FramePlanInputs in = inputs(PlanExecutor::kCpu, PixelFormat::kNV12);
  in.luma = LumaSource::kSource;
  in.channels = "l";
  in.image_needed = false;
  in.health = true;
  FramePlan plan = planFrame(in);
  EXPECT_EQ(plan.describe(),
            "cpu NV12: import+count frame->counts x2, health rows->sums, histogram "
            "counts->counts x2, scale counts->scales; L from the source's luma; no RGBA result");
  EXPECT_EQ(plan.count_mode, CountMode::kLumaOnly);

  in.channels = "rgbl";
  plan = planFrame(in);
  EXPECT_EQ(plan.count_mode, CountMode::kRows);

  in.image_needed = true;
  plan = planFrame(in);
  EXPECT_EQ(plan.count_mode, CountMode::kImage);
  EXPECT_EQ(plan.describe(),
            "cpu NV12: import+count frame->counts x2, health image->sums, histogram "
            "counts->counts x2, scale counts->scales; L from the source's luma");

  in = inputs(PlanExecutor::kCpu, PixelFormat::kYUYV);
  in.luma = LumaSource::kSource;
  in.blur = in.resize = in.health = true;
  EXPECT_EQ(planFrame(in).describe(),
            "cpu YUYV: import frame->image x2, health image->sums, blur image->image x2, resize "
            "image->image x2, histogram image->counts x2, scale counts->scales; L from the "
            "source's luma");

  // A Bayer frame is demosaiced into an image even when no sink reads it.
  in = inputs(PlanExecutor::kCpu, PixelFormat::kSBGGR8);
  in.image_needed = false;
  EXPECT_EQ(planFrame(in).count_mode, CountMode::kImage);
}

// What the frames of a plan's format take from it instead of the format table: its name, and
// whether it is YUV (its own chroma planes) or Bayer (demosaiced), written out by hand.
TEST(FramePlan, CarriesTheFormatFactsItsFramesRead) {
  struct Row {
    PixelFormat format;
    const char* name;
    bool yuv, bayer;
  };
  for (const Row& row :
       {Row{PixelFormat::kNV12, "NV12", true, false}, Row{PixelFormat::kYUYV, "YUYV", true, false},
        Row{PixelFormat::kGREY, "GREY", false, false},
        Row{PixelFormat::kRGB24, "RGB24", false, false},
        Row{PixelFormat::kMJPEG, "MJPEG", false, false},
        Row{PixelFormat::kSRGGB10P, "SRGGB10P", false, true}}) {
    for (PlanExecutor executor : {PlanExecutor::kGpu, PlanExecutor::kCpu}) {
      const FramePlan plan = planFrame(inputs(executor, row.format));
      EXPECT_STREQ(plan.format_name, row.name);
      EXPECT_EQ(plan.yuv, row.yuv) << row.name;
      EXPECT_EQ(plan.bayer, row.bayer) << row.name;
    }
  }
}

// The two executors run the same stages in the same order; the GPU adds only its pack pass and
// the 256-value histogram, the CPU folds import and histogram into one pass.
TEST(FramePlan, BothExecutorsRunTheSameStages) {
  auto stages = [](const FramePlan& plan) {
    std::string out;
    for (const PlanPass& p : plan.passes) {
      if (p.kind == PassKind::kPack || p.kind == PassKind::kHistogram256) continue;
      out += p.kind == PassKind::kImportCount || p.kind == PassKind::kDemosaic ? "import"
                                                                               : passName(p.kind);
      out += p.lanes == 2 && rank(p.kind) != 0 ? "x2 " : " ";
    }
    return out;
  };
  for (PixelFormat format : allPixelFormats()) {
    for (int bits = 0; bits < 16; ++bits) {
      FramePlanInputs in = inputs(PlanExecutor::kGpu, format);
      in.luma = bits & 1 ? LumaSource::kSource : LumaSource::kRgb;
      in.blur = bits & 2;
      in.resize = bits & 4;
      in.health = bits & 8;
      FramePlanInputs cpu = in;
      cpu.executor = PlanExecutor::kCpu;
      EXPECT_EQ(stages(planFrame(in)), stages(planFrame(cpu))) << formatName(format) << " " << bits;
    }
  }
}

}  // namespace
}  // namespace esf
