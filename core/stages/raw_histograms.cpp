#include "core/stages/raw_histograms.hpp"

#include <string>
#include <utility>

#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kRawStage = "raw histograms";

// The shader's shared words: the four sites' histograms, crushed and clipped.
int64_t rawSharedBytes(int bins) {
  return (4 * int64_t(bins) + 8) * 4;
}
}  // namespace

RawHistogramsParams RawHistogramsParams::defaultsFor(const GlContext& gl) {
  return {pixelWorkgroup(gl.limits())};
}

Status RawHistogramsParams::validate(const ComputeLimits& limits, int bins) const {
  if (Status s = checkRange(kRawStage, "bins", bins, 1, 256); !s) return s;
  return checkWorkgroup(limits, kRawStage, group.x, group.y, rawSharedBytes(bins));
}

Result<RawHistograms> RawHistograms::create(const GlContext& gl, const RawHistogramsParams& params,
                                            int bins) {
  if (Status s = params.validate(gl.limits(), bins); !s) return s.error();
  RawHistograms out(gl, params, bins);
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "raw_histograms.comp",
      ShaderDefines().set("BINS", bins).set("WG_X", params.group.x).set("WG_Y", params.group.y));
  if (!program) return program.error();
  out.program_ = std::move(program.value());
  Result<GlBuffer> counts = makeStorageBuffer(out.words(), "raw histograms counts");
  if (!counts) return counts.error();
  out.counts_ = std::move(counts.value());
  return out;
}

Status RawHistograms::run(GLuint raw_texture, int width, int height,
                          const RawHistogramsSetup& setup) {
  last_.reset();
  if (setup.bins != bins_)
    return fail(ErrorCode::kInternal, kRawStage, ": made for ", std::to_string(bins_),
                " bins, asked for ", std::to_string(setup.bins));
  Result<RawSiteHistograms> empty =
      emptyRawSiteHistograms(width, height, setup.bit_depth, setup.levels, bins_);
  if (!empty) return empty.error();
  if (!raw_texture) return fail(ErrorCode::kInternal, kRawStage, ": no raw texture");
  // Each output word counts pixels of this frame: a site's bin, crushed or clipped count is at
  // most width * height.
  if (uint64_t(width) * uint64_t(height) > 0xFFFFFFFFull)
    return fail(ErrorCode::kUnsupported, kRawStage, ": ", std::to_string(width), "x",
                std::to_string(height), " pixels exceed a 32-bit count");
  const WorkgroupShape& g = params_.group;
  const int64_t invocations = int64_t(g.invocations());
  const int64_t shared_loop = (int64_t(words()) + invocations - 1) / invocations;
  const int64_t pairs = (int64_t(width) + 1) / 2;
  const int64_t row_loop = (pairs + g.x - 1) / g.x;
  if (Status s =
          checkLoopIterations(*gl_, kRawStage, 2 * shared_loop + row_loop, "use a wider workgroup");
      !s)
    return s;
  const int64_t groups = (int64_t(height) + g.y - 1) / g.y;
  if (Status s = checkDispatch(gl_->limits(), kRawStage, groups, 1); !s) return s;
  if (Status s = fillBuffer(counts_.get(), words(), 0, "raw histograms counts"); !s) return s;
  const GLuint p = program_.get();
  glUseProgram(p);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, raw_texture);
  glUniform1i(glGetUniformLocation(p, "u_raw"), 0);
  glUniform2i(glGetUniformLocation(p, "u_size"), width, height);
  glUniform2ui(glGetUniformLocation(p, "u_levels"), empty->black, empty->white);
  const CfaOrder o = setup.order;
  glUniform4i(glGetUniformLocation(p, "u_sites"), int(cfaSite(o, 0, 0)), int(cfaSite(o, 1, 0)),
              int(cfaSite(o, 0, 1)), int(cfaSite(o, 1, 1)));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts_.get());
  glDispatchCompute(GLuint(groups), 1, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  if (Status s = checkGl("raw histograms dispatch"); !s) return s;
  // Each site's pixels follow from the frame's size: (x, y) of parity (px, py) is site
  // cfaSite(order, px, py), and there are ceil or floor of half the width and height of them.
  for (int py = 0; py < 2; ++py)
    for (int px = 0; px < 2; ++px)
      empty->pixels[size_t(cfaSite(o, px, py))] +=
          uint64_t((width + 1 - px) / 2) * uint64_t((height + 1 - py) / 2);
  last_ = std::move(empty.value());
  return Status::success();
}

Result<RawSiteHistograms> RawHistograms::read() const {
  Result<std::vector<uint32_t>> words =
      readWordsByCopy(counts_.get(), this->words(), "raw histograms read-back");
  if (!words) return words.error();
  return histogramsOf(words.value());
}

Result<RawSiteHistograms> RawHistograms::histogramsOf(std::span<const uint32_t> words) const {
  // Before a run the buffer holds no counts; a span of another length is not its words.
  if (!last_ || words.size() != this->words())
    return fail(ErrorCode::kInternal, kRawStage, ": no counts to read (",
                last_ ? std::to_string(words.size()) + " words" : std::string("no run yet"), ")");
  RawSiteHistograms out = *last_;
  const size_t bins = size_t(bins_);
  for (size_t site = 0; site < 4; ++site) {
    out.counts[site].assign(words.begin() + site * bins, words.begin() + (site + 1) * bins);
    out.crushed[site] = words[4 * bins + site];
    out.clipped[site] = words[4 * bins + 4 + site];
  }
  return out;
}

Status RawHistograms::poison(uint32_t pattern) {
  return fillBuffer(counts_.get(), words(), pattern, "raw histograms poison");
}

}  // namespace esf
