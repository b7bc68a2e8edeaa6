#include "bench/bench_report.hpp"

#include <cstdio>

namespace esf::bench {

BenchRow timed(const std::string& label, const std::string& group, const std::string& variant,
               bool esframe, Result<TimingStats> t, double bytes, double pixels) {
  BenchRow r;
  r.frame = label;
  r.group = group;
  r.variant = variant;
  r.esframe = esframe;
  if (t)
    r.t = t.value();
  else
    r.error = t.error().message;
  r.bytes = bytes;
  r.pixels = pixels;
  return r;
}

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string ms(double v) {
  return v >= 100 ? fmt("%.1f", v) : v >= 1 ? fmt("%.2f", v) : fmt("%.4f", v);
}

// The peer's short name: the variant up to the first ':' or '('.
std::string shortName(const std::string& variant) {
  size_t end = variant.find_first_of(":(");
  std::string s = variant.substr(0, end);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string rowsTable(const std::vector<BenchRow>& rows) {
  std::string out =
      "| frame | stage | variant | timer | median ms | min ms | max ms | GB/s | Mpx/s | fps | "
      "vs peers |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const BenchRow& r : rows) {
    out += "| " + r.frame + " | " + r.group + " | " + r.variant + " | ";
    if (!r.error.empty()) {
      out += "- | - | - | - | - | - | - | " + r.error + " |\n";
      continue;
    }
    double s = r.t.median_ms / 1e3;
    out += std::string(r.t.timer_query ? "GPU" : "wall") + " | " + ms(r.t.median_ms) + " | " +
           ms(r.t.min_ms) + " | " + ms(r.t.max_ms) + " | " +
           (r.bytes > 0 && s > 0 ? fmt("%.1f", r.bytes / s / 1e9) : "") + " | " +
           (r.pixels > 0 && s > 0 ? fmt("%.0f", r.pixels / s / 1e6) : "") + " | " +
           (r.fps_frames > 0 && s > 0 ? fmt("%.1f", r.fps_frames / s) : "") + " | ";
    std::string vs;
    if (r.esframe) {
      for (const BenchRow& p : rows) {
        if (p.esframe || p.frame != r.frame || p.group != r.group || !p.error.empty() ||
            p.t.median_ms <= 0)
          continue;
        if (!vs.empty()) vs += ", ";
        vs += fmt("%.2fx ", r.t.median_ms / p.t.median_ms) + shortName(p.variant);
      }
    }
    if (!r.note.empty()) vs += (vs.empty() ? "" : "; ") + r.note;
    out += vs + " |\n";
  }
  return out;
}

std::string sweepTable(const Sweep& s) {
  std::string out =
      "| configuration | median ms | min ms | max ms | runs |\n|---|---|---|---|---|\n";
  const SweepPoint* best = s.best();
  for (const SweepPoint& p : s.points) {
    std::string label = (&p == best ? "**" + p.label + "**" : p.label);
    if (!p.ok())
      out += "| " + label + " | - | - | - | " + p.error + " |\n";
    else
      out += "| " + label + " | " + ms(p.stats.median_ms) + " | " + ms(p.stats.min_ms) + " | " +
             ms(p.stats.max_ms) + " | " + std::to_string(p.stats.samples) + " |\n";
  }
  return out;
}

nlohmann::json rowsJson(const std::vector<BenchRow>& rows) {
  nlohmann::json a = nlohmann::json::array();
  for (const BenchRow& r : rows) {
    nlohmann::json j = {
        {"frame", r.frame}, {"stage", r.group}, {"variant", r.variant}, {"esframe", r.esframe}};
    if (!r.error.empty()) {
      j["error"] = r.error;
    } else {
      j["median_ms"] = r.t.median_ms;
      j["min_ms"] = r.t.min_ms;
      j["max_ms"] = r.t.max_ms;
      j["samples"] = r.t.samples;
      j["gpu_timer"] = r.t.timer_query;
      if (r.bytes > 0) j["gb_per_s"] = r.bytes / (r.t.median_ms / 1e3) / 1e9;
      if (r.pixels > 0) j["mpixel_per_s"] = r.pixels / (r.t.median_ms / 1e3) / 1e6;
      if (r.fps_frames > 0) j["fps"] = r.fps_frames / (r.t.median_ms / 1e3);
    }
    if (!r.note.empty()) j["note"] = r.note;
    a.push_back(j);
  }
  return a;
}

nlohmann::json sweepJson(const Sweep& s) {
  nlohmann::json pts = nlohmann::json::array();
  for (const SweepPoint& p : s.points) {
    nlohmann::json j = {{"label", p.label}, {"series", p.series}, {"x", p.x}, {"params", p.params}};
    if (p.ok()) {
      j["median_ms"] = p.stats.median_ms;
      j["min_ms"] = p.stats.min_ms;
      j["max_ms"] = p.stats.max_ms;
      j["samples"] = p.stats.samples;
    } else {
      j["error"] = p.error;
    }
    pts.push_back(j);
  }
  return {{"stage", s.stage},
          {"sweep", s.name},
          {"x_axis", s.x_axis},
          {"x_log2", s.x_log2},
          {"categorical", s.categorical},
          {"points", pts}};
}

Result<Sweep> sweepFromJson(const nlohmann::json& j) {
  try {
    Sweep s;
    s.stage = j.at("stage").get<std::string>();
    s.name = j.at("sweep").get<std::string>();
    s.x_axis = j.at("x_axis").get<std::string>();
    // Files from before the flags were written: the persistent and per-invocation sweeps are
    // the ones over powers of two.
    bool pow2 = s.name == "persistent" || s.name == "pixels_per_invocation";
    s.x_log2 = j.value("x_log2", pow2);
    s.categorical = j.value("categorical", !pow2);
    for (const nlohmann::json& pj : j.at("points")) {
      SweepPoint p;
      p.label = pj.at("label").get<std::string>();
      p.series = pj.value("series", std::string());
      p.x = pj.at("x").get<double>();
      p.params = pj.value("params", nlohmann::json::object());
      if (pj.contains("error")) {
        p.error = pj["error"].get<std::string>();
      } else {
        p.stats.median_ms = pj.at("median_ms").get<double>();
        p.stats.min_ms = pj.at("min_ms").get<double>();
        p.stats.max_ms = pj.at("max_ms").get<double>();
        p.stats.samples = pj.value("samples", 0);
      }
      s.points.push_back(std::move(p));
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
    return fail(ErrorCode::kCorruptData, "sweep in results JSON: ", e.what());
  }
}

double ratio(const std::vector<BenchRow>& rows, const std::string& frame, const std::string& group,
             const std::string& esframe_prefix, const std::string& peer_prefix) {
  const BenchRow *e = nullptr, *p = nullptr;
  for (const BenchRow& r : rows) {
    if (r.frame != frame || r.group != group || !r.error.empty()) continue;
    if (r.esframe && r.variant.rfind(esframe_prefix, 0) == 0 && !e) e = &r;
    if (!r.esframe && r.variant.rfind(peer_prefix, 0) == 0 && !p) p = &r;
  }
  return e && p && p->t.median_ms > 0 ? e->t.median_ms / p->t.median_ms : 0;
}

}  // namespace esf::bench
