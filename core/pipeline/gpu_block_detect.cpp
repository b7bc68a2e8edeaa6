#include "core/pipeline/gpu_block_detect.hpp"

#include <utility>

#include "core/stages/scopes.hpp"
#include "core/stats/blockdetect.hpp"

namespace esf {
namespace {

// What ffmpeg's filter takes as 8-bit planes of its own (ffmpegPlanes): not Bayer, not
// compressed, not deeper.
bool ffmpegTakes(const PixelFormatInfo& info) {
  return info.bit_depth == 8 && info.packing != Packing::kCompressed &&
         (info.colour == ColourFamily::kYuv || info.colour == ColourFamily::kGrey ||
          info.colour == ColourFamily::kRgb);
}

}  // namespace

Status GpuBlockDetect::configureFor(PixelFormat format, bool packed_import) {
  format_ = format;
  counted_format_ = false;
  planes_.clear();
  const PixelFormatInfo& info = pixelFormatInfo(format);
  if (!ffmpegTakes(info)) return Status::success();
  std::vector<PlaneSource> all;
  if (info.colour == ColourFamily::kYuv) {
    // The Y and chroma bytes where the import's plane textures hold them (as the scopes and
    // luma signalstats read them): R8 planes, NV12's GR88 pairs, YUYV/UYVY's (Y, C) pairs.
    const ChromaLayout l = chromaLayoutOf(format);
    hsub_ = l.hsub, vsub_ = l.vsub;
    const bool uyvy = l.layout == ChromaPlanes::kUyvy;
    all.push_back({Source::kPlaneTexture, 0, 1, 0, uyvy ? 1 : 0, false});
    switch (l.layout) {
      case ChromaPlanes::kPlanar:
        all.push_back({Source::kPlaneTexture, 1, 1, 0, 0, true});
        all.push_back({Source::kPlaneTexture, 2, 1, 0, 0, true});
        break;
      case ChromaPlanes::kSemiPlanar:
        all.push_back({Source::kPlaneTexture, 1, 1, 0, l.swap_uv ? 1 : 0, true});
        all.push_back({Source::kPlaneTexture, 1, 1, 0, l.swap_uv ? 0 : 1, true});
        break;
      case ChromaPlanes::kYuyv:
      case ChromaPlanes::kUyvy:
        all.push_back({Source::kPlaneTexture, 0, 2, 0, uyvy ? 0 : 1, true});
        all.push_back({Source::kPlaneTexture, 0, 2, 1, uyvy ? 0 : 1, true});
        break;
    }
  } else if (info.colour == ColourFamily::kGrey) {
    all.push_back({Source::kPlaneTexture, 0, 1, 0, 0, false});
  } else {
    // G, B, R (A): bytes of the import's RGBA, exact copies of the source's.
    const Source s = packed_import ? Source::kPackedRgba : Source::kRgbaImage;
    for (int channel : {1, 2, 0}) all.push_back({s, 0, 1, 0, channel, false});
    if (info.a.present()) all.push_back({s, 0, 1, 0, 3, false});
  }
  for (size_t p = 0; p < all.size(); ++p)
    if ((config_.planes >> p) & 1) planes_.push_back(all[p]);
  if (!stage_) {
    Result<BlockDetect> made = BlockDetect::create(gl_, BlockDetectParams::defaultsFor(gl_));
    if (!made) return made.error();
    stage_.emplace(std::move(made.value()));
  }
  if (packed_import && info.colour == ColourFamily::kRgb) {
    if (Status s = stage_->preparePacked(); !s) return s;
  }
  counted_format_ = true;
  return Status::success();
}

Status GpuBlockDetect::count(const ImportedFrame& imported) {
  slot_.setCounted(false);
  if (!counted_format_ || !stage_) return Status::success();
  if (Status s = stage_->beginFrame(imported.width, imported.height); !s) return s;
  for (const PlaneSource& p : planes_) {
    BlockDetectPlane plane;
    plane.texel_step = p.texel_step, plane.texel_offset = p.texel_offset;
    plane.channel = p.channel;
    plane.width = p.chroma ? (imported.width + hsub_ - 1) / hsub_ : imported.width;
    plane.height = p.chroma ? (imported.height + vsub_ - 1) / vsub_ : imported.height;
    if (p.source == Source::kPlaneTexture) plane.texture = imported.planes[p.texture_index];
    if (p.source == Source::kRgbaImage) plane.texture = imported.rgba;
    if (p.source == Source::kPackedRgba) plane.packed = imported.packed_rgba;
    if (Status s = stage_->runPlane(plane); !s) return s;
  }
  slot_.setCounted(true);
  return Status::success();
}

void GpuBlockDetect::addReadback(FrameReadback& readback) {
  if (stage_) slot_.addTo(readback, stage_->resultWords());
}

Status GpuBlockDetect::collect(FrameResult& r, const FrameReadback& readback) {
  const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback);
  if (!words) return Status::success();
  Result<std::vector<float>> figures = stage_->planeFiguresOf(*words, config_);
  if (!figures) return figures.error();
  r.block = meanOfPlanes(figures.value());
  return Status::success();
}

}  // namespace esf
