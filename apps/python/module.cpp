// The esframe Python module: libesframe's public API for numpy frames (apps/python/esframe.pyi
// has the signatures, README.md "Python" the use).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "apps/python/config.hpp"
#include "apps/python/errors.hpp"
#include "apps/python/frame_from_buffer.hpp"
#include "apps/python/py_pipeline.hpp"
#include "apps/python/result.hpp"
#include "apps/python/run.hpp"
#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"
#include "esframe/settings.hpp"
#include "esframe/version.hpp"

namespace py = pybind11;

namespace esf::python {

namespace {

PyResult processArray(PyPipeline& self, const py::object& frame, std::optional<std::string> format,
                      std::string colorimetry, bool full_range, std::optional<uint64_t> seq,
                      std::optional<uint64_t> ts_ns, std::string source) {
  FrameMetadata meta;
  meta.format = std::move(format);
  meta.colorimetry = std::move(colorimetry);
  meta.full_range = full_range;
  meta.seq = seq ? *seq : self.next_seq;
  meta.ts_ns = ts_ns ? *ts_ns : 0;
  meta.source = std::move(source);
  InputFrame input = frameFromBuffer(frame, meta);
  PyResult r = self.process(input.frame, input.copied);
  self.next_seq = meta.seq + 1;
  return r;
}

}  // namespace

}  // namespace esf::python

PYBIND11_MODULE(esframe, m) {
  using namespace esf;
  using namespace esf::python;
  m.doc() = R"(esframe: exact exposure histograms, statistics and camera health of numpy frames.

    pipeline = esframe.Pipeline(backend="cpu", bins=256, channels="rgbl")
    result = pipeline.process(frame)          # HxWx4 RGBA, HxWx3 RGB, HxW GREY uint8, ...
    result.hist                               # numpy uint32 (channels, bins), no copy
    result.stats["l"]["p50"], result.to_dict()

    for result in esframe.open("/dev/video0", backend="auto", max_frames=100): ...

Failures raise esframe.Error with .code (esframe.ERROR_CODES).)";
  m.attr("__version__") = libraryVersion();
  registerErrors(m);
  bindResult(m);

  py::class_<PyPipeline>(m, "Pipeline", R"(A configured esframe pipeline (PipelineConfig).

Keyword arguments, all optional:
  backend   "auto" (a hardware GPU, else the CPU executor), "gles", "cpu" or "reference"
  bins      1..256 bins per channel (bin of value v: v * bins >> 8)
  channels  letters of r, g, b, l in the order of hist's rows ("rgbl")
  strategy  the GPU histogram strategy ("single", "global-atomic", ...); None: automatic
  threads   CPU executor threads, 0: one per core
  blur      odd box blur taps, or (taps, iterations); None: no blur
  resize    (width, height) area-average downscale before counting; None: none
  luma      "rgb" (BT.709 luma of the RGB) or "source" (the frame's own Y plane)
  health    True or a dict of HealthConfig fields (pixel_black_th, picture_black_ratio_th,
            black_min_duration, freeze_noise, freeze_duration, scene_threshold, grid_columns,
            grid_rows, rois, change_level, flat_tenengrad, detail_loss, covered_ratio,
            covered_min_duration), or a str of esframe run --health's keys
            ("grid=8x6,threshold=5"); None: off
  raw       dict of black, white, gain_r, gain_b for Bayer frames
  gpu       dict of platform ("auto", "gbm", "device", "surfaceless"), drm_device, egl_device,
            debug, selftest
A Pipeline is used from the thread that created it. Errors raise esframe.Error.)")
      .def(py::init([](const py::kwargs& kwargs) {
        return std::make_unique<PyPipeline>(pipelineConfig(kwargs));
      }))
      .def("process", &processArray, py::arg("frame"), py::arg("format") = py::none(),
           py::kw_only(), py::arg("colorimetry") = "bt601", py::arg("full_range") = false,
           py::arg("seq") = py::none(), py::arg("ts_ns") = py::none(), py::arg("source") = "array",
           R"(Processes one frame and returns an esframe.Result.

frame: a numpy array or buffer protocol object. Shapes by format (format=None picks RGBA32, RGB24
or GREY from the shape): (H, W, 4) uint8 RGBA32 XRGB32 ARGB32 XBGR32 ABGR32; (H, W, 3) uint8
RGB24 BGR24; (H, W, 2) uint8 YUYV UYVY; (H, W) uint8 GREY and 8-bit Bayer; (H, W) uint16 Bayer
10/12/16. NV12 NV21 YU12 YUV422P YUV444P: one (H * 3/2, W), (2H, W) or (3H, W) array of the
planes' rows (even sizes), or a tuple of the plane arrays. Rows may be strided (a crop of a
larger frame is read in place; YU12 YUV422P YUV444P as one array only without row padding); any
other layout (a slice of the channels, a transposed or flipped view) is copied once to C order
(Result.input_copied). The GIL is released while
esframe works. seq defaults to one more than the previous frame's, ts_ns to 0.)")
      .def("open", &openFrames, py::arg("source"), py::kw_only(),
           py::arg("max_frames") = py::none(),
           "Iterates Results from a source (see esframe.open) through this pipeline.")
      .def("end_stream", &endStream,
           "Ends the stream: the health events its end gives (a black interval still running), "
           "as dicts.")
      .def_property_readonly(
          "backend", [](PyPipeline& p) { return std::string(backendName(p.get().backend())); },
          "The backend the stages run on: 'gles', 'cpu' or 'reference'.")
      .def_property_readonly(
          "device", [](PyPipeline& p) { return p.get().backendDescription(); },
          "What the stages run on, and for backend='auto' why.");

  bindFrames(m);

  m.def(
      "open",
      [](const std::string& source, std::optional<int64_t> max_frames, const py::kwargs& options) {
        py::object pipeline =
            py::cast(new PyPipeline(pipelineConfig(selectArguments(options, false))),
                     py::return_value_policy::take_ownership);
        return openFramesOf(pipeline, source, selectArguments(options, true), max_frames);
      },
      py::arg("source"), py::kw_only(), py::arg("max_frames") = py::none(),
      R"(Iterates esframe.Results from any source the CLI takes.

source: "pattern", "/dev/video0", "libcamera", a Y4M/raw/image file, a directory or glob of
images, or "-" (stdin). Keyword arguments are Pipeline's (backend, bins, ...) and the source's:
width, height, format, fps, buffers, io, controls (dict), seed, colorimetry, full_range,
dump_raw_dir, poll_timeout_ms. max_frames: stop after this many. The iterator's .pipeline is
the Pipeline it made; use it in a with statement to close a camera promptly.)");

  bindRun(m);

  m.def(
      "settings",
      [] {
        auto rows = [](const auto& table) {
          py::list out;
          for (const auto& s : table) {
            py::dict row;
            row["key"] = s.key;
            row["field"] = s.field;
            row["type"] = s.type == SettingType::kInteger ? "int" : "float";
            row["min"] = s.min;
            row["max"] = s.max;
            row["decibels"] = s.decibels;
            row["help"] = s.help;
            out.append(row);
          }
          return out;
        };
        py::dict out;
        out["health"] = rows(healthSettings());
        out["raw"] = rows(rawSettings());
        return out;
      },
      "The numbers of the health and raw options, as one table declares them for every client: "
      "{'health': [...], 'raw': [...]}, each a list of dicts with key (the CLI's name, '' where "
      "it spells it otherwise), field (the keyword here), type ('int' or 'float'), min, max "
      "(inclusive), decibels and help.");

  m.def(
      "set_log_level",
      [](const std::string& level) {
        const char* names[] = {"error", "warning", "info", "debug"};
        for (int i = 0; i < 4; ++i)
          if (level == names[i]) return setLogLevel(LogLevel(i));
        raise(ErrorCode::kInvalidArgument, "log level '", level,
              "' is not error, warning, info or debug");
      },
      py::arg("level"), "How much esframe logs to stderr: error, warning (default), info, debug.");
}
