#include "apps/python/result.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "apps/python/errors.hpp"
#include "esframe/base/unique_fd.hpp"
#include "esframe/sinks.hpp"

namespace py = pybind11;

namespace esf::python {
namespace {

// The JSONL record of the frame as the library's record sink writes it (the CLI's own line),
// through a memory file.
std::string jsonlRecord(const FrameResult& frame) {
  UniqueFd fd(memfd_create("esframe-jsonl", MFD_CLOEXEC));
  if (!fd.valid()) raise(errorCodeFromErrno(errno), "to_dict: memfd_create failed");
  auto sink = unwrap(createRecordSink(fd.get(), RecordSinkOptions{}));
  check(sink->write(frame));
  check(sink->finish());
  const off_t end = lseek(fd.get(), 0, SEEK_END);
  std::string text(size_t(end > 0 ? end : 0), '\0');
  if (end > 0 && pread(fd.get(), text.data(), text.size(), 0) != ssize_t(text.size()))
    raise(ErrorCode::kIo, "to_dict: reading the record back failed");
  return text.substr(0, text.find('\n'));
}

py::dict toDict(const PyResult& r) {
  py::object loads = py::module_::import("json").attr("loads");
  return loads(jsonlRecord(*r.frame));
}

py::dict statsDict(const ChannelStats& s) {
  py::dict d;
  d["min"] = s.min;
  d["max"] = s.max;
  d["mean"] = s.mean;
  d["p1"] = s.p1;
  d["p10"] = s.p10;
  d["p50"] = s.p50;
  d["p90"] = s.p90;
  d["p99"] = s.p99;
  d["clip_low"] = s.clip_low;
  d["clip_high"] = s.clip_high;
  d["msv"] = s.msv;
  d["pixels"] = s.count;
  return d;
}

// The JSONL record's health object, from the library's own writer (as to_dict): one writer of
// the health names, regions included.
py::object healthDict(const FrameResult& f) {
  if (!f.health) return py::none();
  py::object loads = py::module_::import("json").attr("loads");
  return loads(jsonlRecord(f))["health"];
}

const ChannelStats* lumaStats(const FrameResult& f) {
  for (const ChannelStats& s : f.stats)
    if (s.channel == 'l') return &s;
  return nullptr;
}

}  // namespace

PyResult makeResult(FrameResult&& frame, bool input_copied) {
  frame.gpu = nullptr;  // valid only until the pipeline's next frame
  frame.image = nullptr;
  return PyResult{std::make_shared<const FrameResult>(std::move(frame)), input_copied};
}

py::dict eventDict(const HealthEvent& e) {
  py::dict d;
  d["event"] = healthEventName(e.type);
  d["seq"] = e.seq;
  d["ts_ns"] = e.ts_ns;
  d["start_ns"] = e.start_ns;
  d["end_ns"] = e.end_ns;
  d["score"] = e.score;
  return d;
}

void bindResult(py::module_& m) {
  py::class_<PyResult>(m, "Result", R"(One processed frame: histogram, statistics, health.

Returned by Pipeline.process() and yielded by esframe.open(). Attributes follow the JSONL record's
names (docs/output-formats.md); to_dict() is that record.)")
      .def_property_readonly(
          "hist",
          [](py::object self) {
            const PyResult& r = self.cast<const PyResult&>();
            const HistogramData& h = r.frame->hist;
            const py::ssize_t channels = h.channelCount();
            // counts[bin * channels + c]: channel-major view, no copy; the Result keeps it alive.
            py::array_t<uint32_t> view(
                {channels, py::ssize_t(h.bins)},
                {py::ssize_t(sizeof(uint32_t)), py::ssize_t(sizeof(uint32_t)) * channels},
                h.counts.data(), self);
            view.attr("setflags")(py::arg("write") = false);
            return view;
          },
          "numpy uint32 array, shape (channels, bins): a read-only view of the read-back counts.")
      .def_property_readonly(
          "channels", [](const PyResult& r) { return r.frame->hist.channels; },
          "The channel letters of hist's rows, e.g. 'rgbl'.")
      .def_property_readonly(
          "bins", [](const PyResult& r) { return r.frame->hist.bins; }, "Bins per channel.")
      .def_property_readonly(
          "stats",
          [](const PyResult& r) {
            py::dict d;
            for (const ChannelStats& s : r.frame->stats)
              d[py::str(std::string(1, s.channel))] = statsDict(s);
            return d;
          },
          "Per channel letter: min, max, mean, p1, p10, p50, p90, p99, clip_low, clip_high, msv, "
          "pixels.")
      .def_property_readonly(
          "signalstats",
          [](const PyResult& r) -> py::object {
            const ChannelStats* l = lumaStats(*r.frame);
            if (!l) return py::none();
            py::dict d;
            d["YMIN"] = double(l->min);
            d["YLOW"] = double(l->p10);
            d["YAVG"] = l->mean;
            d["YHIGH"] = double(l->p90);
            d["YMAX"] = double(l->max);
            if (r.frame->signalstats) {  // the record's members of the same names
              const py::dict record = toDict(r);
              for (const char* name :
                   {"UMIN",   "ULOW",   "UAVG",    "UHIGH",  "UMAX",   "VMIN",  "VLOW",
                    "VAVG",   "VHIGH",  "VMAX",    "UDIF",   "VDIF",   "BRNG",  "SATMIN",
                    "SATLOW", "SATAVG", "SATHIGH", "SATMAX", "HUEMED", "HUEAVG"})
                d[name] = record[name];
              for (const char* name : {"TOUT", "VREP"})
                if (record.contains(name)) d[name] = record[name];
            }
            return d;
          },
          "ffmpeg signalstats names of the l channel (YMIN YLOW YAVG YHIGH YMAX), or None; with "
          "signalstats=True and a YUV frame also UMIN..VMAX, UDIF, VDIF, BRNG, SATMIN..SATMAX, "
          "HUEMED, HUEAVG, and TOUT, VREP with signalstats_tout, signalstats_vrep.")
      .def_property_readonly(
          "cropdetect",
          [](const PyResult& r) -> py::object {
            if (!r.frame->cropdetect) return py::none();
            py::dict d = toDict(r)["cropdetect"].cast<py::dict>();  // without its "crop" text
            d.attr("pop")("crop");
            return d;
          },
          "cropdetect's x1 x2 y1 y2 w h x y (Pipeline(detect=...)), or None (not asked, or a "
          "skipped frame).")
      .def_property_readonly(
          "blur",
          [](const PyResult& r) -> py::object {
            return r.frame->blur ? py::object(py::float_(double(*r.frame->blur))) : py::none();
          },
          "blurdetect's lavfi.blur (a float; nan where ffmpeg prints nan), or None.")
      .def_property_readonly(
          "block",
          [](const PyResult& r) -> py::object {
            return r.frame->block ? py::object(py::float_(double(*r.frame->block))) : py::none();
          },
          "blockdetect's lavfi.block, or None.")
      .def_property_readonly(
          "scopes",
          [](py::object self) -> py::object {
            const PyResult& r = self.cast<const PyResult&>();
            if (!r.frame->scopes) return py::none();
            const ScopeCounts& s = *r.frame->scopes;
            // Read-only views of the counts, no copy; the Result keeps them alive.
            auto view = [&](const std::vector<uint32_t>& counts,
                            std::vector<py::ssize_t> shape) -> py::object {
              if (counts.empty()) return py::none();
              py::array_t<uint32_t> a(shape, counts.data(), self);
              a.attr("setflags")(py::arg("write") = false);
              return a;
            };
            const py::ssize_t columns = s.columns;
            py::dict d;
            d["columns"] = s.columns;
            d["waveform"] = view(s.waveform, {columns, 256});
            d["parade"] = view(s.parade, {3, columns, 256});
            d["vectorscope"] = view(s.vectorscope, {256, 256});
            d["vectorscope_samples"] = s.vectorscope_samples;
            return d;
          },
          "Pipeline(scopes=...): columns; waveform (columns, 256), parade (3, columns, 256) with "
          "channels R, G, B, vectorscope (256, 256) indexed [cr, cb], as read-only numpy uint32 "
          "views (None where not counted); vectorscope_samples. None without scopes.")
      .def_property_readonly(
          "ev_hint", [](const PyResult& r) { return py::object(toDict(r)["ev_hint"]); },
          "Exposure correction hint in stops from the l channel's msv, or None.")
      .def_property_readonly(
          "timing_ms",
          [](const PyResult& r) {
            py::dict d;
            for (const StageTiming& t : r.frame->timings) d[py::str(t.stage)] = t.ms;
            return d;
          },
          "Milliseconds per stage.")
      .def_property_readonly(
          "health", [](const PyResult& r) { return healthDict(*r.frame); },
          "Camera health figures (Pipeline(health=...)), or None.")
      .def_property_readonly(
          "events",
          [](const PyResult& r) {
            py::list l;
            for (const HealthEvent& e : r.frame->events) l.append(eventDict(e));
            return l;
          },
          "Health events this frame reports: dicts with event, seq, ts_ns, start_ns, end_ns, "
          "score.")
      .def_property_readonly("seq", [](const PyResult& r) { return r.frame->seq; })
      .def_property_readonly("ts_ns", [](const PyResult& r) { return r.frame->ts_ns; })
      .def_property_readonly("source", [](const PyResult& r) { return r.frame->source; })
      .def_property_readonly(
          "format", [](const PyResult& r) { return r.frame->format; },
          "The input's pixel format as V4L2 names it.")
      .def_property_readonly(
          "width", [](const PyResult& r) { return r.frame->width; },
          "Of the processed image (after resize).")
      .def_property_readonly("height", [](const PyResult& r) { return r.frame->height; })
      .def_property_readonly("dropped", [](const PyResult& r) { return r.frame->dropped; })
      .def_property_readonly("corrupted", [](const PyResult& r) { return r.frame->corrupted; })
      .def_property_readonly(
          "input_copied", [](const PyResult& r) { return r.input_copied; },
          "True when the input array's strides did not fit the format and it was copied once.")
      .def("to_dict", &toDict,
           "The frame's JSONL record as a dict, exactly as `esframe run` prints it.")
      .def("__repr__", [](const PyResult& r) {
        return "<esframe.Result seq=" + std::to_string(r.frame->seq) + " " +
               std::to_string(r.frame->width) + "x" + std::to_string(r.frame->height) + " " +
               r.frame->format + " bins=" + std::to_string(r.frame->hist.bins) + " channels='" +
               r.frame->hist.channels + "'>";
      });
}

}  // namespace esf::python
