#include "apps/python/config.hpp"

#include <functional>
#include <map>

#include "apps/python/errors.hpp"
#include "esframe/settings.hpp"

namespace py = pybind11;

namespace esf::python {
namespace {

std::string typeName(const py::handle& h) {
  return std::string(py::str(py::type::of(h).attr("__name__")));
}

template <typename T>
T as(const py::handle& value, const std::string& name, const char* wanted) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(value), " is not ", wanted);
  }
}

int asInt(const py::handle& v, const std::string& name) {
  if (py::isinstance<py::bool_>(v) || !py::isinstance<py::int_>(v))
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(v), " is not an int");
  return as<int>(v, name, "an int in the C int range");
}

double asDouble(const py::handle& v, const std::string& name) {
  if (py::isinstance<py::bool_>(v) ||
      !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(v), " is not a number");
  return v.cast<double>();
}

std::string asString(const py::handle& v, const std::string& name) {
  if (!py::isinstance<py::str>(v))
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(v), " is not a str");
  return v.cast<std::string>();
}

bool asBool(const py::handle& v, const std::string& name) {
  if (!py::isinstance<py::bool_>(v))
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(v), " is not a bool");
  return v.cast<bool>();
}

// A dict's entries by a setter per key; an unknown key is an error naming it.
template <typename Setters>
void fromDict(const py::handle& v, const std::string& name, const Setters& setters) {
  if (!py::isinstance<py::dict>(v))
    raise(ErrorCode::kInvalidArgument, name, ": a ", typeName(v), " is not a dict");
  for (auto [key, value] : py::reinterpret_borrow<py::dict>(v)) {
    const std::string k = asString(key, name + " key");
    auto it = setters.find(k);
    if (it == setters.end()) raise(ErrorCode::kInvalidArgument, name, ": no argument '", k, "'");
    it->second(value, name + "." + k);
  }
}

using Setter = std::function<void(const py::handle&, const std::string&)>;
using SetterMap = std::map<std::string, Setter>;

// A source's width or height: 0 takes the source's own.
int asSide(const py::handle& v, const std::string& name) {
  const int side = asInt(v, name);
  if (side < 0)
    raise(ErrorCode::kInvalidArgument, name, ": ", std::to_string(side), " is negative");
  return side;
}

Size asSize(const py::handle& v, const std::string& name) {
  if (!(py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) || py::len(v) != 2)
    raise(ErrorCode::kInvalidArgument, name, ": a (width, height) pair expected");
  py::sequence s = py::reinterpret_borrow<py::sequence>(v);
  return Size{asInt(s[0], name + " width"), asInt(s[1], name + " height")};
}

// A setter for each setting of `table`, on the config `target()` returns.
template <typename Config, typename Target>
SetterMap settingSetters(const std::vector<Setting<Config>>& table, Target target) {
  SetterMap setters;
  for (const Setting<Config>& setting : table) {
    setters[setting.field] = [&setting, target](const py::handle& v, const std::string& n) {
      const double value =
          setting.type == SettingType::kInteger ? double(asInt(v, n)) : asDouble(v, n);
      check(checkSetting(n, setting.type, setting.min, setting.max, value));
      setting.set(target(), value);
    };
  }
  return setters;
}

}  // namespace

namespace {

// Pipeline(scopes=...): None, a dict {waveform, parade, vectorscope: bool, columns: int}, or the
// names of the scopes (a list, or one comma-separated str as the CLI's --scopes, which may hold
// "columns=N").
ScopeOptions scopeOptions(const py::handle& v, const std::string& name) {
  ScopeOptions s;
  if (v.is_none()) return s;
  if (py::isinstance<py::dict>(v)) {
    fromDict(v, name,
             SetterMap{
                 {"waveform", [&](auto x, auto n) { s.waveform = asBool(x, n); }},
                 {"parade", [&](auto x, auto n) { s.parade = asBool(x, n); }},
                 {"vectorscope", [&](auto x, auto n) { s.vectorscope = asBool(x, n); }},
                 {"columns", [&](auto x, auto n) { s.columns = asInt(x, n); }},
             });
    return s;
  }
  std::vector<std::string> parts;
  if (py::isinstance<py::str>(v)) {
    const std::string text = v.cast<std::string>();
    for (size_t start = 0; start <= text.size();) {
      const size_t comma = std::min(text.find(',', start), text.size());
      parts.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
  } else {
    for (const py::handle& item : py::reinterpret_borrow<py::iterable>(v))
      parts.push_back(asString(item, name));
  }
  for (const std::string& part : parts) {
    if (part == "waveform") {
      s.waveform = true;
    } else if (part == "parade") {
      s.parade = true;
    } else if (part == "vectorscope") {
      s.vectorscope = true;
    } else if (part.starts_with("columns=")) {
      s.columns = asInt(py::int_(py::str(part.substr(8))), name + " columns");
    } else {
      raise(ErrorCode::kInvalidArgument, name, ": unknown scope '", part,
            "' (waveform, parade, vectorscope, columns=N)");
    }
  }
  return s;
}

}  // namespace

PipelineConfig pipelineConfig(const py::dict& kwargs) {
  PipelineConfig c;
  c.image_needed = false;  // no Python result reads the RGBA working image
  HealthConfig health_defaults;
  // HealthConfig's and RawConfig's numbers from their tables (esframe/settings.hpp): a value out
  // of a setting's range is refused here, before it is cast to the field's type.
  SetterMap health_fields =
      settingSetters<HealthConfig>(healthSettings(), [&]() -> HealthConfig& { return *c.health; });
  health_fields["rois"] = [&](auto v, auto n) {
    c.health->rois.clear();
    for (const py::handle& r : py::reinterpret_borrow<py::iterable>(v)) {
      if (py::len(r) != 4) raise(ErrorCode::kInvalidArgument, n, ": (x, y, w, h) expected");
      py::sequence q = py::reinterpret_borrow<py::sequence>(r);
      c.health->rois.push_back({asInt(q[0], n), asInt(q[1], n), asInt(q[2], n), asInt(q[3], n)});
    }
  };
  const SetterMap raw_fields =
      settingSetters<RawConfig>(rawSettings(), [&]() -> RawConfig& { return c.raw; });
  const SetterMap gpu_fields = {
      {"platform",
       [&](auto v, auto n) { c.gpu.platform = unwrap(parseEglPlatform(asString(v, n))); }},
      {"drm_device", [&](auto v, auto n) { c.gpu.drm_device = asString(v, n); }},
      {"egl_device", [&](auto v, auto n) { c.gpu.egl_device = asString(v, n); }},
      {"debug", [&](auto v, auto n) { c.gpu.debug = asBool(v, n); }},
      {"selftest", [&](auto v, auto n) { c.gpu.selftest = asBool(v, n); }},
  };
  const SetterMap fields = {
      {"backend", [&](auto v, auto n) { c.backend = unwrap(parseBackend(asString(v, n))); }},
      {"bins", [&](auto v, auto n) { c.histogram.bins = asInt(v, n); }},
      {"channels", [&](auto v, auto n) { c.histogram.channels = asString(v, n); }},
      {"strategy",
       [&](auto v, auto n) {
         if (!v.is_none()) c.histogram.strategy = unwrap(parseHistogramStrategy(asString(v, n)));
       }},
      {"threads", [&](auto v, auto n) { c.threads = asInt(v, n); }},
      {"blur",
       [&](auto v, auto n) {
         if (v.is_none()) return;
         if (py::isinstance<py::tuple>(v) && py::len(v) == 2) {
           py::tuple t = py::reinterpret_borrow<py::tuple>(v);
           c.blur = BlurConfig{asInt(t[0], n + " taps"), asInt(t[1], n + " iterations")};
         } else {
           c.blur = BlurConfig{asInt(v, n), 1};
         }
       }},
      {"resize",
       [&](auto v, auto n) {
         if (!v.is_none()) c.resize = asSize(v, n);
       }},
      {"luma",
       [&](auto v, auto n) {
         const std::string s = asString(v, n);
         if (s == "rgb")
           c.luma = LumaSource::kRgb;
         else if (s == "source")
           c.luma = LumaSource::kSource;
         else
           raise(ErrorCode::kInvalidArgument, n, ": '", s, "' is not rgb or source");
       }},
      {"health",
       [&](auto v, auto n) {
         if (v.is_none() || (py::isinstance<py::bool_>(v) && !v.template cast<bool>())) return;
         if (py::isinstance<py::str>(v)) {  // the CLI's --health keys, "grid=8x6,noise=-50dB"
           c.health = unwrap(parseHealthConfig(v.template cast<std::string>()));
           return;
         }
         c.health = health_defaults;
         if (!py::isinstance<py::bool_>(v)) fromDict(v, n, health_fields);
       }},
      {"signalstats_tout", [&](auto v, auto n) { c.signalstats_tout = asBool(v, n); }},
      {"signalstats_vrep", [&](auto v, auto n) { c.signalstats_vrep = asBool(v, n); }},
      {"detect",
       [&](auto v, auto n) {
         if (v.is_none()) return;
         if (py::isinstance<py::str>(v)) {  // the CLI's --detect text, "crop,limit=30,blur"
           c.detect = unwrap(parseDetectConfig(v.template cast<std::string>(), n));
           return;
         }
         // {"crop": True, "blur": {"radius": 20}}: the same text, built from the dict.
         std::string text;
         for (auto [name, keys] : py::reinterpret_borrow<py::dict>(v)) {
           if (py::isinstance<py::bool_>(keys) && !keys.template cast<bool>()) continue;
           text += (text.empty() ? "" : ",") + asString(name, n);
           if (py::isinstance<py::bool_>(keys)) continue;
           for (auto [key, value] : py::reinterpret_borrow<py::dict>(keys))
             text += "," + asString(key, n) + "=" + py::str(value).template cast<std::string>();
         }
         c.detect = unwrap(parseDetectConfig(text, n));
       }},
      {"signalstats", [&](auto v, auto n) { c.signalstats = asBool(v, n); }},
      {"scopes", [&](auto v, auto n) { c.scopes = scopeOptions(v, n); }},
      {"raw", [&](auto v, auto n) { fromDict(v, n, raw_fields); }},
      {"gpu", [&](auto v, auto n) { fromDict(v, n, gpu_fields); }},
      {"image_needed", [&](auto v, auto n) { c.image_needed = asBool(v, n); }},
  };
  fromDict(kwargs, "Pipeline", fields);
  check(c.validate());
  return c;
}

namespace {

const char* const kSourceArguments[] = {
    "width",    "height", "format",      "fps",        "buffers",      "io",
    "controls", "seed",   "colorimetry", "full_range", "dump_raw_dir", "poll_timeout_ms"};

bool isSourceArgument(const std::string& name) {
  for (const char* a : kSourceArguments)
    if (name == a) return true;
  return false;
}

}  // namespace

py::dict selectArguments(const py::dict& options, bool source_options) {
  py::dict out;
  for (auto [key, value] : options)
    if (isSourceArgument(asString(key, "argument name")) == source_options) out[key] = value;
  return out;
}

SourceConfig sourceConfig(const py::dict& kwargs) {
  SourceConfig c;
  Colorimetry colorimetry;
  bool colorimetry_set = false;
  const SetterMap fields = {
      {"width", [&](auto v, auto n) { c.width = asSide(v, n); }},
      {"height", [&](auto v, auto n) { c.height = asSide(v, n); }},
      {"format",
       [&](auto v, auto n) {
         if (!v.is_none()) c.format = unwrap(parsePixelFormat(asString(v, n)));
       }},
      {"fps", [&](auto v, auto n) { c.fps = asDouble(v, n); }},
      {"buffers", [&](auto v, auto n) { c.buffers = asInt(v, n); }},
      {"io", [&](auto v, auto n) { c.io = unwrap(parseIoMode(asString(v, n))); }},
      {"controls",
       [&](auto v, auto n) {
         if (!py::isinstance<py::dict>(v))
           raise(ErrorCode::kInvalidArgument, n, ": a dict expected");
         for (auto [key, value] : py::reinterpret_borrow<py::dict>(v))
           c.controls.emplace_back(asString(key, n + " key"), std::string(py::str(value)));
       }},
      {"seed", [&](auto v, auto n) { c.seed = uint64_t(as<int64_t>(v, n, "an int")); }},
      {"colorimetry",
       [&](auto v, auto n) {
         const std::string s = asString(v, n);
         if (s != "bt601" && s != "bt709")
           raise(ErrorCode::kInvalidArgument, n, ": '", s, "' is not bt601 or bt709");
         colorimetry.encoding = s == "bt709" ? YcbcrEncoding::kBt709 : YcbcrEncoding::kBt601;
         colorimetry_set = true;
       }},
      {"full_range",
       [&](auto v, auto n) {
         colorimetry.full_range = asBool(v, n);
         colorimetry_set = true;
       }},
      {"dump_raw_dir", [&](auto v, auto n) { c.dump_raw_dir = asString(v, n); }},
      {"poll_timeout_ms", [&](auto v, auto n) { c.poll_timeout_ms = asInt(v, n); }},
  };
  fromDict(kwargs, "source", fields);
  if (colorimetry_set) c.colorimetry = colorimetry;
  return c;
}

}  // namespace esf::python
