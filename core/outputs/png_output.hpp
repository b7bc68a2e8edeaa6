#pragma once
// --output png:DIR[,every=N][,graph=WxH][,mode=overlay|parade|luma][,scale=linear|log]
// [,decor=on|off][,scope=waveform|parade|vectorscope]: every Nth frame (N default 1), writes
//   DIR/graph-SEQ.png  the histogram graph (GPU: graph.frag; --backend cpu: its CPU reference),
//                      or with scope= that scope of the frame (scope.frag; scope_reference.cpp)
//   DIR/frame-SEQ.png  the processed working image (after --blur/--resize)
// SEQ is the frame's sequence number, 8 digits. Each file is written to a temporary name and
// renamed, so a reader never sees half a PNG. DIR is created if missing (one level). Existing
// files: as SequenceNamedFiles says (refused unless overwrite, but for a repeated number).
#include <memory>
#include <optional>
#include <string>

#include "base/atomic_file.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/scope_renderer.hpp"
#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// Encodes RGBA8 as PNG (stb_image_write).
Result<std::string> encodePng(const RgbaImage& image);
// Encodes RGBA8 as PNG and writes it to `path` whole or not at all
// (base/atomic_file.hpp: a temporary file, no symlink followed, an existing file refused unless
// ExistingFile::kReplace).
Status writePng(const std::string& path, const RgbaImage& image,
                ExistingFile existing = ExistingFile::kRefuse);

// The graph of a frame as --output png draws it: with the GPU renderer (made on first use, in the
// pipeline's GL context) when the frame carries a GPU view, else the CPU reference. Call on the
// pipeline's thread, during the sink's write().
class GraphPainter {
 public:
  GraphPainter(int width, int height, GraphOptions graph)
      : width_(width), height_(height), graph_(graph) {}
  Result<RgbaImage> paint(const FrameResult& frame);

 private:
  Result<RgbaImage> paintRaw(const FrameResult& frame);
  Result<RgbaImage> paintScope(const FrameResult& frame);

  int width_, height_;
  GraphOptions graph_;
  std::optional<GraphRenderer> renderer_;
  std::optional<ScopeRenderer> scope_renderer_;
};

// The frame's processed image in CPU memory (a GPU frame's texture read back); nullopt for a
// frame that carries none. On the pipeline's thread, during write().
Result<std::optional<RgbaImage>> processedImage(const FrameResult& frame);

class PngOutput : public FrameSink {
 public:
  // gpu: whether frames carry a GPU view (--backend gles); the renderer is made on first use.
  static Result<std::unique_ptr<PngOutput>> create(const PngSinkOptions& options);
  Status write(const FrameResult& frame) override;

 private:
  explicit PngOutput(PngSinkOptions options)
      : options_(std::move(options)),
        painter_(options_.graph_width, options_.graph_height, options_.graph) {}

  PngSinkOptions options_;
  uint64_t delivered_ = 0;
  SequenceNamedFiles files_{options_.overwrite ? ExistingFile::kReplace : ExistingFile::kRefuse};
  GraphPainter painter_;
};

}  // namespace esf
