#include "apps/python/run.hpp"

#include <fcntl.h>
#include <pybind11/stl.h>

#include <memory>
#include <vector>

#include "apps/python/config.hpp"
#include "apps/python/errors.hpp"
#include "esframe/base/unique_fd.hpp"
#include "esframe/sinks.hpp"

namespace py = pybind11;

namespace esf::python {
namespace {

// The iterator esframe.open returns. Members are destroyed in reverse order: the source before
// the pipeline that opened it (esframe/pipeline.hpp).
class PyFrames {
 public:
  PyFrames(py::object pipeline, std::unique_ptr<FrameSource> source, std::optional<int64_t> max)
      : pipeline_object_(std::move(pipeline)),
        pipeline_(pipeline_object_.cast<PyPipeline*>()),
        source_(std::move(source)),
        remaining_(max ? *max : -1) {}
  ~PyFrames() { close(); }

  PyResult next() {
    if (!source_ || remaining_ == 0) throw py::stop_iteration();
    Pipeline& p = pipeline_->get();
    struct Step {
      Result<std::optional<Frame>> frame = std::optional<Frame>();
      std::optional<Result<FrameResult>> result;
    } step;
    {
      py::gil_scoped_release release;  // capture and processing overlap other Python threads
      step.frame = source_->next();
      if (step.frame && *step.frame) step.result = p.process(**step.frame);
    }
    if (!step.frame) throw ErrorException(step.frame.error());
    if (!*step.frame) {
      close();
      throw py::stop_iteration();
    }
    if (remaining_ > 0) --remaining_;
    return makeResult(unwrap(std::move(*step.result)), false);
  }

  void close() {
    if (!source_) return;
    py::gil_scoped_release release;  // a camera's stream-off waits for the driver
    source_.reset();
  }

  FrameSource& source() {
    if (!source_) raise(ErrorCode::kInvalidArgument, "the source is closed");
    return *source_;
  }
  const py::object& pipeline() const { return pipeline_object_; }

 private:
  py::object pipeline_object_;
  PyPipeline* pipeline_;
  std::unique_ptr<FrameSource> source_;
  int64_t remaining_;
};

// Runs Python's signal handlers between frames (esf::run holds no GIL): Ctrl-C stops the run
// after the frame in hand, the sinks finish, and the KeyboardInterrupt is raised afterwards.
class SignalCheckSink : public FrameSink {
 public:
  explicit SignalCheckSink(StopToken& stop) : stop_(stop) {}
  Status write(const FrameResult&) override {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      error_ = std::make_unique<py::error_already_set>();
      stop_.requestStop();
    }
    return Status::success();
  }
  std::unique_ptr<py::error_already_set> error_;

 private:
  StopToken& stop_;
};

// A record sink's target: an int is a file descriptor the caller keeps (1: stdout), anything
// else a path, created or truncated.
int recordFd(const py::handle& target, const char* what, std::vector<UniqueFd>& owned) {
  if (py::isinstance<py::int_>(target)) return target.cast<int>();
  const std::string path = py::str(py::module_::import("os").attr("fspath")(target));
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd.valid())
    raise(errorCodeFromErrno(errno), what, ": cannot open ", path, ": ", strerror(errno));
  owned.push_back(std::move(fd));
  return owned.back().get();
}

const char* endName(RunReport::End end) {
  switch (end) {
    case RunReport::End::kEndOfStream:
      return "end-of-stream";
    case RunReport::End::kFrameLimit:
      return "frame-limit";
    case RunReport::End::kStopped:
      return "stopped";
    case RunReport::End::kOutputClosed:
      return "output-closed";
  }
  return "?";
}

py::dict runLoop(const std::string& source, const py::object& jsonl, const py::object& csv,
                 const py::object& binary, const py::object& png, const py::object& prom,
                 int64_t max_frames, const py::kwargs& options) {
  PipelineConfig config = pipelineConfig(selectArguments(options, false));
  // The PNG sink writes the processed frames too, which the CPU executor and the GPU's packed
  // import otherwise skip.
  if (!png.is_none()) config.image_needed = true;
  PyPipeline pipeline(config);
  const SourceConfig source_config = sourceConfig(selectArguments(options, true));
  std::vector<UniqueFd> fds;
  std::vector<std::unique_ptr<FrameSink>> sinks;
  const std::pair<const py::object*, RecordFormat> records[] = {
      {&jsonl, RecordFormat::kJsonl}, {&csv, RecordFormat::kCsv}, {&binary, RecordFormat::kBinary}};
  for (auto [target, format] : records) {
    if (target->is_none()) continue;
    RecordSinkOptions o;
    o.format = format;
    sinks.push_back(unwrap(createRecordSink(recordFd(*target, "run", fds), o, pipeline.get())));
  }
  if (!png.is_none()) {
    PngSinkOptions o;
    o.dir = py::str(py::module_::import("os").attr("fspath")(png));
    sinks.push_back(unwrap(createPngSink(o)));
  }
  if (!prom.is_none()) {
    PromSinkOptions o;
    o.path = py::str(py::module_::import("os").attr("fspath")(prom));
    sinks.push_back(unwrap(createPromSink(o)));
  }
  StopToken stop;
  auto signals = std::make_unique<SignalCheckSink>(stop);
  SignalCheckSink* signal_sink = signals.get();
  sinks.push_back(std::move(signals));
  std::vector<FrameSink*> sink_list;
  for (auto& s : sinks) sink_list.push_back(s.get());
  Pipeline& p = pipeline.get();
  Result<RunReport> report = RunReport{};
  {
    py::gil_scoped_release release;
    Result<std::unique_ptr<FrameSource>> opened = p.openSource(source, source_config);
    if (!opened) {
      report = opened.error();
    } else {
      report = esf::run(p, **opened, sink_list, stop, RunLimits{max_frames});
    }
  }
  if (signal_sink->error_) {
    signal_sink->error_->restore();
    throw py::error_already_set();
  }
  const RunReport r = unwrap(std::move(report));
  py::dict d;
  d["frames"] = r.frames;
  d["end"] = endName(r.end);
  d["seconds"] = r.seconds;
  d["steady_seconds"] = r.steady_seconds;
  return d;
}

}  // namespace

py::object openFramesOf(py::object pipeline, const std::string& source,
                        const py::dict& source_options, std::optional<int64_t> max_frames) {
  if (max_frames && *max_frames < 0)
    raise(ErrorCode::kInvalidArgument, "max_frames: ", std::to_string(*max_frames), " is negative");
  PyPipeline* p = pipeline.cast<PyPipeline*>();
  const SourceConfig config = sourceConfig(source_options);
  Pipeline& pl = p->get();
  Result<std::unique_ptr<FrameSource>> opened = [&] {
    py::gil_scoped_release release;
    return pl.openSource(source, config);
  }();
  return py::cast(new PyFrames(std::move(pipeline), unwrap(std::move(opened)), max_frames),
                  py::return_value_policy::take_ownership);
}

py::object openFrames(py::object self, const std::string& source, std::optional<int64_t> max_frames,
                      const py::kwargs& options) {
  return openFramesOf(std::move(self), source, options, max_frames);
}

py::list endStream(PyPipeline& pipeline) {
  Pipeline& p = pipeline.get();
  Result<std::vector<HealthEvent>> events = [&] {
    py::gil_scoped_release release;
    return p.endStream();
  }();
  py::list out;
  for (const HealthEvent& e : unwrap(std::move(events))) out.append(eventDict(e));
  return out;
}

void bindFrames(py::module_& m) {
  py::class_<PyFrames>(m, "Frames", "The iterator of esframe.open(): Results, one per frame.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &PyFrames::next)
      .def("close", &PyFrames::close, "Closes the source (a camera stops streaming).")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyFrames& f, py::args) { f.close(); })
      .def_property_readonly("pipeline", &PyFrames::pipeline, "The esframe.Pipeline it runs.")
      .def_property_readonly(
          "name", [](PyFrames& f) { return f.source().name(); },
          "What the source is: 'pattern', '/dev/video0', a file name.")
      .def_property_readonly("width", [](PyFrames& f) { return f.source().width(); })
      .def_property_readonly("height", [](PyFrames& f) { return f.source().height(); })
      .def_property_readonly(
          "format", [](PyFrames& f) { return std::string(formatName(f.source().format())); });
}

void bindRun(py::module_& m) {
  m.def("run", &runLoop, py::arg("source"), py::kw_only(), py::arg("jsonl") = py::none(),
        py::arg("csv") = py::none(), py::arg("binary") = py::none(), py::arg("png") = py::none(),
        py::arg("prom") = py::none(), py::arg("max_frames") = -1,
        R"(The CLI's run loop: frames from `source` through a Pipeline into the built-in sinks.

jsonl, csv, binary: a path (created or truncated) or an int file descriptor (1: stdout) for the
record sink of that format. png: a directory for frame and graph PNGs. prom: a Prometheus
textfile. max_frames: -1 until the source ends. Other keyword arguments are esframe.open's.
Ctrl-C stops after the frame in hand (the sinks finish), then raises KeyboardInterrupt.
Returns {"frames", "end" ("end-of-stream", "frame-limit", "stopped", "output-closed"),
"seconds", "steady_seconds"}.)");
}

}  // namespace esf::python
