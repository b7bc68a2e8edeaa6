#include "bench/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

namespace esf::bench {
namespace {

constexpr double kW = 900, kH = 600, kLeft = 80, kRight = 160, kTop = 40, kBottom = 230;
const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string msLabel(double ms) {
  char b[32];
  if (ms >= 10)
    std::snprintf(b, sizeof b, "%.0f ms", ms);
  else if (ms >= 0.1)
    std::snprintf(b, sizeof b, "%.2f ms", ms);
  else
    std::snprintf(b, sizeof b, "%.0f us", ms * 1000);
  return b;
}

}  // namespace

std::string sweepSvg(const Sweep& sweep, const std::string& title) {
  std::vector<const SweepPoint*> ok;
  for (const SweepPoint& p : sweep.points)
    if (p.ok()) ok.push_back(&p);
  std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' width='" + num(kW) + "' height='" +
                    num(kH) + "' font-family='sans-serif' font-size='12'>\n";
  svg += "<rect width='100%' height='100%' fill='white'/>\n";
  svg += "<text x='" + num(kW / 2) + "' y='22' text-anchor='middle' font-size='15'>" + esc(title) +
         "</text>\n";
  if (ok.empty()) return svg + "<text x='100' y='100'>no configuration worked</text></svg>\n";

  auto xval = [&](const SweepPoint& p) {
    return sweep.x_log2 ? std::log2(std::max(p.x, 1.0)) : p.x;
  };
  double x0 = 1e300, x1 = -1e300, y1 = 0;
  for (const SweepPoint* p : ok) {
    x0 = std::min(x0, xval(*p)), x1 = std::max(x1, xval(*p));
    y1 = std::max(y1, p->stats.max_ms);
  }
  // The y axis is logarithmic when the times span more than 20x (llvmpipe: 3 ms to 95 ms).
  double ymin = 1e300;
  for (const SweepPoint* p : ok) ymin = std::min(ymin, std::max(p->stats.min_ms, 1e-6));
  bool ylog = y1 / ymin > 20;
  double ly0 = std::log10(ymin) - 0.05, ly1 = std::log10(y1) + 0.05;
  if (x1 == x0) x1 = x0 + 1;
  double pw = kW - kLeft - kRight, ph = kH - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x0) / (x1 - x0) * pw; };
  auto py = [&](double ms) {
    double f = ylog ? (std::log10(std::max(ms, 1e-6)) - ly0) / (ly1 - ly0) : ms / (y1 * 1.05);
    return kTop + ph * (1 - f);
  };
  // Axes and y ticks.
  svg += "<line x1='" + num(kLeft) + "' y1='" + num(kTop + ph) + "' x2='" + num(kLeft + pw) +
         "' y2='" + num(kTop + ph) + "' stroke='black'/>\n";
  svg += "<line x1='" + num(kLeft) + "' y1='" + num(kTop) + "' x2='" + num(kLeft) + "' y2='" +
         num(kTop + ph) + "' stroke='black'/>\n";
  for (int i = 0; i <= 5; ++i) {
    double ms = ylog ? std::pow(10, ly0 + (ly1 - ly0) * i / 5) : y1 * 1.05 * i / 5;
    double y = py(ms);
    svg += "<line x1='" + num(kLeft) + "' y1='" + num(y) + "' x2='" + num(kLeft + pw) + "' y2='" +
           num(y) + "' stroke='#ddd'/>\n";
    svg += "<text x='" + num(kLeft - 6) + "' y='" + num(y + 4) + "' text-anchor='end'>" +
           msLabel(ms) + "</text>\n";
  }
  svg += "<text x='16' y='" + num(kTop + ph / 2) + "' transform='rotate(-90 16 " +
         num(kTop + ph / 2) + ")' text-anchor='middle'>median GPU time" +
         std::string(ylog ? " (log scale)" : "") + ", bar = min..max</text>\n";
  // X ticks: the values (log2 axes print the power of two), or the configuration labels.
  // Many categories (the blur sweep has ~100): label every k-th one and the fastest; the
  // table next to the plot lists them all.
  std::map<double, std::string> ticks;
  size_t every = sweep.categorical ? (ok.size() + 29) / 30 : 1;
  const SweepPoint* fastest = sweep.best();
  for (size_t i = 0; i < ok.size(); ++i) {
    const SweepPoint* p = ok[i];
    if (i % every != 0 && p != fastest) continue;
    ticks[xval(*p)] = sweep.categorical ? p->label : num(p->x).substr(0, num(p->x).size() - 2);
  }
  for (const auto& [x, label] : ticks) {
    double X = px(x);
    if (sweep.categorical)
      svg += "<text x='" + num(X) + "' y='" + num(kTop + ph + 10) + "' transform='rotate(40 " +
             num(X) + " " + num(kTop + ph + 10) + ")' font-size='9'>" + esc(label) + "</text>\n";
    else
      svg += "<text x='" + num(X) + "' y='" + num(kTop + ph + 16) + "' text-anchor='middle'>" +
             esc(label) + "</text>\n";
  }
  svg += "<text x='" + num(kLeft + pw / 2) + "' y='" + num(kH - 8) + "' text-anchor='middle'>" +
         esc(sweep.x_axis) + "</text>\n";
  // One polyline per series.
  // Series in numeric order of the number in their name ("wg=16" before "wg=128").
  auto byNumber = [](const std::string& a, const std::string& b) {
    auto n = [](const std::string& s) {
      size_t d = s.find_first_of("0123456789");
      return d == std::string::npos ? 0.0 : std::atof(s.c_str() + d);
    };
    return n(a) != n(b) ? n(a) < n(b) : a < b;
  };
  std::map<std::string, std::vector<const SweepPoint*>, decltype(byNumber)> series(byNumber);
  for (const SweepPoint* p : ok) series[p->series].push_back(p);
  int si = 0;
  for (auto& [name, pts] : series) {
    const char* colour = kColours[si % 10];
    std::sort(pts.begin(), pts.end(), [&](auto* a, auto* b) { return xval(*a) < xval(*b); });
    if (!sweep.categorical) {
      std::string line;
      for (const SweepPoint* p : pts)
        line += num(px(xval(*p))) + "," + num(py(p->stats.median_ms)) + " ";
      svg += "<polyline fill='none' stroke='" + std::string(colour) + "' points='" + line + "'/>\n";
    }
    for (const SweepPoint* p : pts) {
      double X = px(xval(*p));
      svg += "<line x1='" + num(X) + "' y1='" + num(py(p->stats.min_ms)) + "' x2='" + num(X) +
             "' y2='" + num(py(p->stats.max_ms)) + "' stroke='" + colour + "' opacity='0.5'/>\n";
      svg += "<circle cx='" + num(X) + "' cy='" + num(py(p->stats.median_ms)) + "' r='3' fill='" +
             colour + "'><title>" + esc(p->label) + ": " + msLabel(p->stats.median_ms) +
             "</title></circle>\n";
    }
    if (!name.empty()) {
      double y = kTop + 14 + 16 * si;
      svg += "<rect x='" + num(kW - kRight + 14) + "' y='" + num(y - 9) +
             "' width='10' height='10' fill='" + colour + "'/><text x='" + num(kW - kRight + 30) +
             "' y='" + num(y) + "'>" + esc(name) + "</text>\n";
    }
    ++si;
  }
  if (const SweepPoint* b = sweep.best()) {
    double X = px(xval(*b)), Y = py(b->stats.median_ms);
    svg += "<circle cx='" + num(X) + "' cy='" + num(Y) +
           "' r='7' fill='none' stroke='black' stroke-width='2'/>\n";
    svg += "<text x='" + num(kLeft + 6) + "' y='" + num(kTop + 12) + "'>fastest: " + esc(b->label) +
           ", " + msLabel(b->stats.median_ms) + "</text>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace esf::bench
