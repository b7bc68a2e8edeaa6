#pragma once
// Import: a captured Frame (any PixelFormat) -> the RGBA8 working image on the GPU.
//
// Planes become textures, one per plane (R8 for Y/U/V/GREY, GR88 for NV12's interleaved UV
// and for YUYV/UYVY's Y+C pairs, RGBA8 for 32-bit RGB), either uploaded from CPU memory or,
// for zero-copy frames (FramePlane::dmabuf_fd >= 0), imported from their dmabufs through
// EGL_EXT_image_dma_buf_import. A compute shader (glsl_es/import_yuv.comp, import_rgb.comp)
// converts them into an RGBA8 texture with integer formulas equal to the CPU reference
// (import_reference.hpp) bit for bit. MJPEG is decoded on the CPU first (mjpeg_decode.hpp).
//
// Luma from the source (--luma source, ImportOptions::source_luma): for YUV and GREY frames the
// same dispatch also writes ImportedFrame::luma, an RGBA8 image with R = G = B = the raw Y byte
// (limited-range values stay 16..235) and A = 255. Any RGBA stage takes it; its L channel equals
// Y exactly because both luma weight sets sum to one (13933+46871+4732 = 65536, 77+150+29 = 256),
// so an L histogram of it is the histogram of the raw Y bytes. --luma rgb (the default in run)
// instead computes L from the converted RGB, which differs: it sees range-expanded, clamped
// values. RGB formats have no source luma (luma == 0).
//
// Packed (ImportOptions::target_packed_rgba): the frame goes into a PackedRgbaBuffer's layout
// instead (an SSBO, one uint per pixel, R in bits 0-7), for pipelines whose stages all read
// that layout and no sink reads an image: the same shaders write the buffers, and a host RGBA32
// frame is copied into its buffer as it is (its bytes are that layout), with no texture and no
// dispatch at all.
#include <GLES3/gl31.h>

#include <memory>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

class GlContext;

// The converted frame on the GPU. Owned by the importer; valid until the next import().
struct ImportedFrame {
  GLuint rgba = 0;  // GL_RGBA8 texture, width x height, bytes R G B A (0 when packed)
  GLuint luma = 0;  // GL_RGBA8, R = G = B = source Y (source_luma and YUV/GREY), else 0
  // Packed imports: the buffers written (ImportOptions::target_packed_*), the same layout
  // (R = G = B = Y, A = 255 for the luma; GREY's luma is its RGBA buffer), else 0.
  GLuint packed_rgba = 0;
  GLuint packed_luma = 0;
  // The plane textures the conversion read (YUV: what yuvPlaneLayout says), 0 past the
  // format's planes and for a host RGBA32 frame copied into a packed buffer as it is.
  GLuint planes[3] = {0, 0, 0};
  int width = 0;
  int height = 0;
  bool zero_copy = false;  // planes came from dmabufs, not uploaded
  double upload_ms = 0;    // CPU wall time handing host planes to GL (0 for zero-copy)
};

struct ImportOptions {
  bool source_luma = false;  // also write ImportedFrame::luma
  // Write into these GL_RGBA8 textures of the frame's size (e.g. GpuImage::texture()) instead
  // of the importer's own, saving a copy. 0: the importer's. ImportedFrame says where the
  // results went (for GREY frames the luma is the RGBA image itself).
  GLuint target_rgba = 0;
  GLuint target_luma = 0;
  // Packed: write the frame into this shader storage buffer (at least width * height * 4
  // bytes, e.g. PackedRgbaBuffer::buffer()) in that layout instead of an image, and the source
  // luma into target_packed_luma. target_rgba and target_luma are then not used.
  GLuint target_packed_rgba = 0;
  GLuint target_packed_luma = 0;
  // Zero-copy frames: wait (fence) until the GPU has read the dmabufs before returning. A caller
  // that reads results back later in the same frame (the pipeline) waits there instead, once,
  // so the import does not stall the GPU queue in the middle of the frame.
  bool wait_for_reads = true;
};

// How glsl_es/import_yuv.comp reads a YUV format's plane textures: its u_layout (0 planar,
// 1 semi-planar, 2 YUYV, 3 UYVY), u_chroma_shift (log2 of the chroma subsampling; 0 for the
// packed layouts, which read their pairs) and u_swap_uv (NV21's CrCb).
struct YuvPlaneLayout {
  int layout = 0;
  int shift_x = 0, shift_y = 0;
  bool swap_uv = false;
};
YuvPlaneLayout yuvPlaneLayout(PixelFormat yuv_format);

// How host-memory planes reach the GPU.
enum class UploadPath {
  kAuto,           // unpack buffers on hardware GPUs, client memory on llvmpipe
  kClientMemory,   // glTexSubImage2D straight from the frame
  kUnpackBuffers,  // a mapped pixel-unpack buffer per plane, two in turn, then a GPU copy
};

class FrameImporter {
 public:
  // On the current context. Compiles nothing: each conversion program is built when a frame
  // first needs it (prepare).
  static Result<std::unique_ptr<FrameImporter>> create(GlContext& gl,
                                                       UploadPath upload = UploadPath::kAuto);
  // Builds the conversion program `format`'s frames use (YUV, or RGB, which MJPEG decodes to),
  // if not built yet. import() does it too; a caller that times frames calls it first, so the
  // first frame's time is not a compile's.
  // `packed`: the program that writes packed buffers (ImportOptions::target_packed_rgba);
  // `source_luma`: the one that also writes the source's luma (ImportOptions::source_luma).
  Status prepare(PixelFormat format, bool packed = false, bool source_luma = false);
  ~FrameImporter();
  FrameImporter(const FrameImporter&) = delete;
  FrameImporter& operator=(const FrameImporter&) = delete;

  // Converts `frame`. The output texture is written through imageStore; the importer issues
  // glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
  // GL_FRAMEBUFFER_BARRIER_BIT) after the dispatch, so later stages may read it directly
  // (GL_SHADER_STORAGE_BARRIER_BIT for packed outputs).
  // Zero-copy frames are waited on (fence) before returning unless options.wait_for_reads is
  // false: the source may requeue the buffer.
  Result<ImportedFrame> import(const Frame& frame, const ImportOptions& options = {});

  // Copies a host-memory frame's planes into the upload buffers the next import() of the same
  // frame will use, so that copy can run while the GPU still works on the frame before it
  // (esf::run: frame N+1 staged before frame N is collected). Only with unpack buffers; a no-op
  // otherwise (client memory, zero-copy, MJPEG, Bayer). import() of any other frame discards
  // it. A failure leaves nothing staged: import() then copies, and reports what fails there.
  // The copy itself runs on a worker thread: `frame`'s memory must stay unchanged until the
  // import() that takes it, or until settle().
  Status stage(const Frame& frame);
  // Waits for a stage()'s copy still running (before the staged frame's memory goes away
  // without an import()).
  void settle();

  // Reads the RGBA output back (tests, PNG output).
  Status readRgba(const ImportedFrame& frame, uint8_t* out) const;
  // Reads any WxH RGBA8 texture back (ImportedFrame::luma too), width*height*4 bytes.
  Status readRgbaTexture(GLuint texture, int width, int height, uint8_t* out) const;

  struct State;

 private:
  explicit FrameImporter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace esf
