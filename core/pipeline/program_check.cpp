#include "core/pipeline/program_check.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "base/pixel_format.hpp"
#include "core/image/gpu_image.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/pipeline/selftest.hpp"
#include "core/stages/block_detect.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/luma_signalstats.hpp"
#include "core/stages/reduce.hpp"
#include "core/stages/scopes.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/sweep_candidates.hpp"
#include "esframe/pipeline.hpp"

namespace esf {
namespace {

// One pipeline configuration and the formats it is fed.
struct Scenario {
  std::string name;
  PipelineConfig config;
  std::vector<PixelFormat> formats;
};

// The option sets that change which programs a pipeline builds, each on a YUV, an RGB and a
// Bayer format (every format alone goes through the default configuration).
std::vector<Scenario> scenarios(const GpuConfig& gpu) {
  PipelineConfig base;
  base.backend = Backend::kGles;
  base.gpu = gpu;
  base.gpu.selftest = false;
  const std::vector<PixelFormat> some = {PixelFormat::kNV12, PixelFormat::kRGBA32,
                                         PixelFormat::kSRGGB10};
  std::vector<Scenario> out;
  out.push_back({"defaults", base, allPixelFormats()});
  auto add = [&](const std::string& name, auto change) {
    Scenario s{name, base, some};
    change(s.config);
    out.push_back(std::move(s));
  };
  add("luma from the source", [](PipelineConfig& c) { c.luma = LumaSource::kSource; });
  add("health", [](PipelineConfig& c) { c.health = HealthConfig{}; });
  add("health with regions", [](PipelineConfig& c) {
    HealthConfig h;
    h.grid_columns = 4;
    h.grid_rows = 3;
    h.rois = {{3, 2, 50, 40}};
    c.health = h;
  });
  add("health, luma from the source", [](PipelineConfig& c) {
    c.health = HealthConfig{};
    c.luma = LumaSource::kSource;
  });
  add("blur 15 taps", [](PipelineConfig& c) { c.blur = BlurConfig{15, 2}; });
  add("blur 15 taps, no image", [](PipelineConfig& c) {
    c.blur = BlurConfig{15, 1};
    c.image_needed = false;
  });
  add("resize", [](PipelineConfig& c) { c.resize = Size{320, 240}; });
  add("64 bins", [](PipelineConfig& c) { c.histogram.bins = 64; });
  add("L only", [](PipelineConfig& c) { c.histogram.channels = "l"; });
  add("no image needed", [](PipelineConfig& c) { c.image_needed = false; });
  // RGB frames count the vectorscope from the image, YUV frames from their chroma planes (a
  // second form of the program); with the source's luma the waveform reads the luma image.
  add("scopes",
      [](PipelineConfig& c) { c.scopes.waveform = c.scopes.parade = c.scopes.vectorscope = true; });
  add("scopes, luma from the source", [](PipelineConfig& c) {
    c.scopes.waveform = c.scopes.parade = c.scopes.vectorscope = true;
    c.luma = LumaSource::kSource;
  });
  add("waveform alone", [](PipelineConfig& c) { c.scopes.waveform = true; });
  // YUV frames' signalstats counts: the chroma planes' form with them.
  add("signalstats", [](PipelineConfig& c) { c.signalstats = true; });
  // TOUT and VREP: YUV frames' Y plane counted beside it.
  add("signalstats, TOUT and VREP", [](PipelineConfig& c) {
    c.signalstats = true;
    c.signalstats_tout = c.signalstats_vrep = true;
  });
  // blockdetect: from the planes' textures or the RGBA image.
  add("blockdetect", [](PipelineConfig& c) { c.detect.block = BlockDetectConfig{}; });
  // blurdetect's four passes (the Gaussian in both source forms), counted at the import.
  add("blurdetect", [](PipelineConfig& c) { c.detect.blur = BlurDetectConfig{}; });
  return out;
}

void runScenario(const Scenario& s, ProgramCheckReport& report) {
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(s.config);
  if (!pipeline) {
    report.notes.push_back(s.name + ": " + pipeline.error().message);
    return;
  }
  for (PixelFormat format : s.formats) {
    SourceConfig source_config;
    source_config.width = 640;
    source_config.height = 480;
    source_config.format = format;
    Result<std::unique_ptr<FrameSource>> source = (*pipeline)->openSource("pattern", source_config);
    if (!source) {
      report.notes.push_back(s.name + ", " + formatName(format) + ": " + source.error().message);
      continue;
    }
    // Two frames: the second runs what needs a previous frame (health's difference).
    for (int i = 0; i < 2; ++i) {
      Result<std::optional<Frame>> frame = (*source)->next();
      if (!frame || !frame->has_value()) break;
      // A fake device returns no results: a frame's own errors are not the programs'.
      Result<FrameResult> result = (*pipeline)->process(**frame);
      if (!result) {
        report.notes.push_back(s.name + ", " + formatName(format) + ": " + result.error().message);
        break;
      }
    }
  }
}

// Each blur strategy at this driver's default shape, and the split blur's vertical forms.
void buildBlurFamilies(GlContext& gl, ProgramCheckReport& report) {
  const BlurParams d = BlurParams::defaultsFor(gl);
  std::vector<BlurParams> forms;
  for (BlurStrategy s : {BlurStrategy::kTiled, BlurStrategy::kSliding, BlurStrategy::kFused,
                         BlurStrategy::kSplit, BlurStrategy::kStream}) {
    BlurParams p = d;
    p.strategy = s;
    forms.push_back(p);
  }
  for (bool quads : {false, true})
    for (bool rows : {false, true}) {
      BlurParams p = d;
      p.strategy = BlurStrategy::kSplit;
      p.buffer_intermediate = true;
      p.column_quads = quads;
      p.row_quads = rows;
      forms.push_back(p);
    }
  std::string why;
  forms.push_back(vendorBlurDefaults(gl, d, &why));
  for (const BlurParams& p : forms) {
    if (Status valid = p.validate(gl.limits()); !valid) {
      report.notes.push_back("blur " + std::string(blurStrategyName(p.strategy)) + ": " +
                             valid.error().message);
      continue;
    }
    Result<Blur> blur = Blur::create(gl, p);
    if (!blur) report.notes.push_back(blur.error().message);
  }
}

void buildReduceForms(GlContext& gl, ProgramCheckReport& report) {
  std::string why;
  ReduceParams vendor = vendorReduceDefaults(gl, ReduceParams{}, &why);
  for (ImageSource source : {ImageSource::kTexture, ImageSource::kPackedBuffer}) {
    ReduceParams p = vendor;
    p.source = source;
    Result<ImageReduce> r = ImageReduce::create(gl, p);
    if (!r) report.notes.push_back(r.error().message);
  }
}

// The scopes' packed-buffer forms, which a frame builds where the histogram reads packed
// buffers (a tuning cache, NVIDIA's defaults), so the scenarios above may not: each with and
// without the luma lane (its program is made at the first run with one).
void buildScopesPackedForms(GlContext& gl, ProgramCheckReport& report) {
  ScopeOptions all;
  all.waveform = all.parade = all.vectorscope = true;
  ScopeOptions waveform;
  waveform.waveform = true;
  Result<PackedRgbaBuffer> pixels = PackedRgbaBuffer::create(16, 16);
  if (!pixels) {
    report.notes.push_back(pixels.error().message);
    return;
  }
  for (const ScopeOptions& scopes : {all, waveform}) {
    Result<Scopes> made = Scopes::create(gl, ScopesParams::defaultsFor(gl, scopes), scopes,
                                         ScopesInput::kPackedBuffer);
    if (!made) {
      report.notes.push_back(made.error().message);
      continue;
    }
    for (const PackedRgbaBuffer* luma : {static_cast<const PackedRgbaBuffer*>(nullptr),
                                         static_cast<const PackedRgbaBuffer*>(&*pixels)}) {
      if (Status s = made->run(*pixels, luma, 4); !s) report.notes.push_back(s.error().message);
    }
  }
}

// TOUT's and VREP's forms alone (the scenarios build the one that counts both).
void buildLumaSignalstatsForms(GlContext& gl, ProgramCheckReport& report) {
  for (bool tout : {false, true}) {
    Result<LumaSignalstats> made =
        LumaSignalstats::create(gl, LumaSignalstatsParams::defaultsFor(gl), tout, !tout);
    if (!made) report.notes.push_back(made.error().message);
  }
}

// blockdetect's form that reads an RGB frame's packed buffer (the scenario builds the other).
void buildBlockDetectPackedForm(GlContext& gl, ProgramCheckReport& report) {
  Result<BlockDetect> made = BlockDetect::create(gl, BlockDetectParams::defaultsFor(gl));
  Status built = made ? made->preparePacked() : Status(made.error());
  if (!built) report.notes.push_back(built.error().message);
}

void buildGraphPrograms(ProgramCheckReport& report) {
  for (GraphMode mode : {GraphMode::kOverlay, GraphMode::kParade, GraphMode::kLuma})
    for (bool log_scale : {false, true}) {
      GraphOptions o = kPlainGraph;
      o.mode = mode;
      o.log_scale = log_scale;
      Result<GraphRenderer> g = GraphRenderer::create(256, "rgbl", 512, 256, o);
      if (!g) report.notes.push_back(g.error().message);
    }
  // The kiosk's frame (core/outputs/drm_frame.cpp).
  Result<GlProgram> frame = ShaderLibrary::builtin().graphics("graph.vert", "frame.frag");
  if (!frame) report.notes.push_back(frame.error().message);
}

void buildSweeps(GlContext& gl, ProgramCheckReport& report) {
  for (const BlurParams& p : blurCandidates(BlurParams::defaultsFor(gl), gl.limits(), false)) {
    Result<Blur> blur = Blur::create(gl, p);
    if (!blur) report.notes.push_back(blur.error().message);
  }
  HistogramParams h = HistogramParams::defaultsFor(gl);
  std::vector<HistogramParams> all = persistentCandidates(h, gl.limits(), false);
  for (const HistogramParams& p : replicatedCandidates(h, gl.limits(), false)) all.push_back(p);
  for (const HistogramParams& p : all) {
    Result<Histogram> histogram = Histogram::create(gl, p);
    if (!histogram) report.notes.push_back(histogram.error().message);
  }
}

// Each file as a shader of its own (the name its file's base name); one that cannot be read or
// built is a note.
void buildShaderFiles(const std::vector<std::string>& paths, ProgramCheckReport& report) {
  for (const std::string& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      report.notes.push_back(path + ": cannot read it");
      continue;
    }
    const std::string source = text.str();
    const std::string name = path.substr(path.find_last_of('/') + 1);
    // The file first (a name it shares with a built-in shader is its own), then the built-in
    // ones, whose common/ files it may include.
    std::vector<EmbeddedFile> files{EmbeddedFile{name, source}};
    files.insert(files.end(), builtinShaders().begin(), builtinShaders().end());
    Result<GlProgram> program = ShaderLibrary(files).compute(name);
    if (!program) report.notes.push_back(program.error().message);
  }
}

// `sweep_candidate`: one esframe tune never chooses when it needs the fallback scheduler
// (core/tuning/sweep.cpp), so that is not a problem of it.
std::vector<std::string> problemsOf(const ProgramReport& r, bool default_program,
                                    bool sweep_candidate = false) {
  std::vector<std::string> problems;
  const DriverVerdict& v = r.verdict;
  if (v.refused) problems.push_back("the driver cannot compile it: " + v.refusal);
  if (v.fallback && !sweep_candidate) problems.push_back("v3d's fallback scheduler");
  for (const ShaderStatistics& s : v.shaders)
    if (default_program && s.spills > 0)
      problems.push_back(s.stage + ": " + std::to_string(s.spills) + " spills, " +
                         std::to_string(s.fills) + " fills");
  for (const std::string& w : v.warnings) problems.push_back(w);
  return problems;
}

}  // namespace

bool ProgramCheckReport::passed() const {
  return problemCount() == 0 && !failed_to_build;
}

int ProgramCheckReport::problemCount() const {
  int n = 0;
  for (const CheckedProgram& p : programs) n += p.problems.empty() ? 0 : 1;
  return n;
}

ProgramCheckReport checkPrograms(GlContext& gl, const GpuConfig& gpu,
                                 const ProgramCheckOptions& options) {
  ProgramCheckReport report;
  report.renderer = gl.renderer();
  report.version = gl.version();
  report.limits = gl.limits();
  ShaderLibrary::clearReports();
  if (!options.shader_files.empty()) {
    buildShaderFiles(options.shader_files, report);
    for (const ProgramReport& built : ShaderLibrary::reports()) {
      CheckedProgram p{built, false, problemsOf(built, true)};
      report.programs.push_back(std::move(p));
    }
    // A file that did not compile or link has no report: its note is its failure.
    if (report.programs.size() < options.shader_files.size()) report.failed_to_build = true;
    return report;
  }
  for (const Scenario& s : scenarios(gpu)) runScenario(s, report);
  if (Status current = gl.makeCurrent(); !current) {
    report.notes.push_back(current.error().message);
    return report;
  }
  buildScopesPackedForms(gl, report);
  buildLumaSignalstatsForms(gl, report);
  buildBlockDetectPackedForm(gl, report);
  const size_t defaults = ShaderLibrary::reportCount();
  buildGraphPrograms(report);
  SelftestOptions selftest;
  selftest.quick = true;
  selftest.all_strategies = true;
  selftest.large = Size{64, 48};
  runSelftest(gl, selftest);  // every histogram strategy; results are not judged here
  buildBlurFamilies(gl, report);
  buildReduceForms(gl, report);
  const size_t before_sweep = ShaderLibrary::reportCount();
  if (options.sweep) buildSweeps(gl, report);
  const std::vector<ProgramReport> built = ShaderLibrary::reports();
  for (size_t i = 0; i < built.size(); ++i) {
    CheckedProgram p;
    p.report = built[i];
    p.default_program = i < defaults;
    const bool sweep_candidate = i >= before_sweep;
    p.problems = problemsOf(p.report, p.default_program, sweep_candidate);
    if (sweep_candidate && p.report.verdict.fallback && !p.report.verdict.refused)
      report.notes.push_back(p.report.name + " [" + p.report.defines +
                             "]: v3d's fallback scheduler: esframe tune never chooses it");
    report.programs.push_back(std::move(p));
  }
  return report;
}

}  // namespace esf
