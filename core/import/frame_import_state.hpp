#pragma once
// FrameImporter's state, shared by its two halves: frame_import.cpp (programs, staging, the
// conversion) and plane_upload.cpp (each plane to the GPU: uploads through client memory or
// the unpack-buffer rings, copies into packed buffers, dmabuf imports kept across frames).
#include <GLES3/gl31.h>
#include <drm_fourcc.h>
#include <sys/types.h>

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/dmabuf_texture.hpp"
#include "core/import/frame_import.hpp"
#include "core/import/import_reference.hpp"
#include "core/import/staging_copier.hpp"
#include "platform/gl_fence.hpp"
#include "platform/gl_objects.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {

class GlContext;

// How one plane becomes a texture.
struct PlaneSpec {
  GLenum internal = GL_R8;
  GLenum format = GL_RED;
  int texel_bytes = 1;
  int width = 0, height = 0;  // texels
  uint32_t drm_fourcc = DRM_FORMAT_R8;
};

// The textures a format needs, one per plane, one texel per sample (pixel_format.hpp). 3-byte
// samples (24-bit RGB) are an R8 texture three bytes per sample (DRM has no 24-bit format every
// driver imports, and Mesa's GBM llvmpipe mangled GL_RGB8 uploads in the vivid test); only rows
// wider than the texture limit fall back to an RGB8 texel per sample.
std::vector<PlaneSpec> planeSpecs(PixelFormat f, int w, int h, int max_texture_size);

struct UploadTexture {
  GlTexture tex;
  GLenum internal = 0;
  int width = 0, height = 0;
};

// Two pixel-unpack buffers of one plane, written in turn; each fence follows the texture copy
// that last read that buffer.
struct UnpackRing {
  std::array<GlBuffer, 2> buffers;
  std::array<GlFence, 2> read_done;
  size_t bytes = 0;
  int next = 0;
  // stage(): buffers[next] already holds these bytes of the plane; import() then only copies
  // it into the texture.
  const uint8_t* staged = nullptr;
  // stage() left buffers[next] mapped while the copier fills it; unmapped by settleStaged().
  bool mapped = false;
};

struct CachedImport {
  dev_t dev;
  ino_t ino;
  DmabufPlaneDesc desc;
  std::unique_ptr<DmabufTexture> texture;
};

// Makes `t` a texture of that format and size unless it is one already.
void ensureTexture(UploadTexture& t, GLenum internal, int w, int h);

// What import() and stage() read of a format in the table (base/pixel_format.hpp) for each of
// its frames, read once: at prepare(), or at the format's first frame; its plane textures at the
// first frame of each size.
struct ImportFormat {
  PixelFormat format{};
  const char* name = "";
  bool bayer = false, compressed = false, yuv = false;
  bool has_luma = false;  // Y bytes of its own (YUV, GREY): ImportOptions::source_luma
  bool bytes_are_packed_layout =
      false;                          // R G B A bytes, alpha present: copied into a packed buffer
  YuvPlaneLayout yuv_layout;          // YUV
  std::optional<RgbOrder> rgb_order;  // the packed RGB formats and GREY
  // The last size its frames came in: the plane textures (planeSpecs), and whether the format
  // takes that size (planeLayout's error, else success).
  int width = -1, height = -1;
  std::vector<PlaneSpec> specs;
  Status size_verdict;
};

struct FrameImporter::State {
  GlContext* gl = nullptr;
  // Built at the first frame that needs each (prepare): [0] into images, [1] packed buffers;
  // yuv's second index: with the source luma written beside (a program declares no image or
  // buffer it is not given: v3d reads every declared unit at dispatch).
  GlProgram yuv[2][2], rgb[2];
  WorkgroupShape group;  // from the driver's limits
  // Every format seen, read from the table once (a deque: a reference stays valid as it grows).
  std::deque<ImportFormat> formats;
  ImportFormat& formatOf(PixelFormat format);
  // Sets `f`'s plane textures for w x h frames where its last size differs; its size verdict.
  Status sizeFor(ImportFormat& f, int w, int h);
  // Builds the program that converts `f`'s frames (into packed buffers; with the source luma
  // beside), if not built yet.
  Status buildProgram(const ImportFormat& f, bool packed, bool source_luma);
  std::array<UploadTexture, 3> uploads;
  UploadTexture out, luma;
  std::vector<CachedImport> imports;
  std::vector<uint8_t> repack;
  GlFramebuffer readback;
  // Hardware GPUs take host planes through pixel-unpack buffers, two per plane used in turn:
  // the plane is copied into a mapped buffer (unsynchronised: the slot's fence says the GPU
  // has finished the texture copy that read it two frames ago) and the texture is filled from
  // it on the GPU, so the CPU never waits for a transfer. glTexSubImage2D from client memory
  // stalls on a slower path instead (NVIDIA: several times the buffer copy,
  // bench/results/h200-run.md). llvmpipe takes client memory directly: for it a buffer is one
  // more CPU copy.
  bool unpack_buffers = false;
  std::array<UnpackRing, 3> unpack;

  Result<GLuint> uploadPlane(const FramePlane& p, const PlaneSpec& s, int index);
  // Host plane `index` holds the rows its spec needs (CPU data, a stride that fits its size).
  static Status checkHostPlane(const FramePlane& p, const PlaneSpec& s, int index);
  // The plane's rows without their padding, in `repack`.
  const uint8_t* tightRows(const FramePlane& p, const PlaneSpec& s);
  // `packed`: the buffer the plane is copied into as it is, instead of the plane's texture.
  Result<GLuint> uploadThroughBuffer(const FramePlane& p, const PlaneSpec& s, int index,
                                     GLuint packed = 0);
  // A host plane whose bytes are the packed layout, into `target` (tight rows).
  Status copyPlaneIntoBuffer(const FramePlane& p, const PlaneSpec& s, GLuint target);
  // Fills the ring's next buffer of plane `index` with the plane (tight rows), here and now.
  Status fillUnpackBuffer(const FramePlane& p, const PlaneSpec& s, int index);
  // Maps the ring's next buffer of plane `index` (`bytes` long) for writing, once the GPU has
  // finished reading it; nullptr with the error on failure.
  Result<uint8_t*> mapNextBuffer(size_t bytes, int index);
  // Unmaps the ring's next buffer of plane `index`; a mapping the driver lost is an error.
  Status unmapNextBuffer(int index);
  // Waits for stage()'s copies and unmaps their buffers; a plane whose buffer was lost is no
  // longer staged (import() copies it again).
  void settleStaged();
  // stage()'s wall time on the calling thread (the mapping; the copy runs on the copier),
  // reported as part of the upload
  double staged_ms = 0;
  // stage()'s copies into the mapped buffers; declared after `unpack`, so it is destroyed (and
  // its copies finished) before the buffers are.
  StagingCopier copier;
  Result<GLuint> importPlane(const FramePlane& p, const PlaneSpec& s);
};

}  // namespace esf
