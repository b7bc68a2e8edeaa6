// Guest-side checker for the DRM output on vkms (tests/vm/cases/drm_output.sh). It owns the
// display around one `esframe run --output drm:...`, and proves from the kernel's side what the
// run showed:
//   kms_check scene [options] -- ESFRAME ARGS...
//     1. becomes DRM master of the card, shows a background on the primary plane and an opaque
//        "occluder" rectangle on the overlay at position --occluder-zpos, starts the CRTC CRC
//     2. drops master, runs esframe (stdout/stderr to --out PREFIX.out/.err), records every CRC
//        and which plane esframe used (its position, rect, format), sampled while it runs
//     3. takes master back: esframe's plane must be free again and the CRC back to the scene's
//     4. reference commit: the expected graph (CPU references of the scale and the graph, from
//        the histogram in esframe's last JSONL line; with --scope NAME the CPU reference of that
//        scope graph from the line's scopes) on the same plane and rect; its CRC must be among
//        the CRCs seen during the run
//     5. writeback: vkms's writeback connector reads back the reference screen, which must equal
//        background, graph and occluder composed on the CPU, pixel for pixel
//   kms_check scene --frame --frame-images A.ppm,B.ppm[,..] --frame-repeat N --graph-alpha A:
//     esframe's frame on the primary plane and its graph over it (translucent background A).
//     Step 4 then composes, for each source image, the expected screen on the CPU in one
//     XRGB16161616 buffer on the primary plane alone (the image scaled with the aspect kept,
//     nearest pixel, black bars; the graph blended over it by KMS's premultiplied formula in
//     16 bits, as vkms does); each reference CRC must be among the run's and all must differ
//     (the screen changed with the frames). Writeback: the last reference, pixel for pixel.
//   kms_check modeset --scene-mode WxH [options] -- ESFRAME ARGS...: modeset and restore (below)
//   kms_check hold --out PREFIX -- COMMAND...: runs COMMAND while holding DRM master (busy test)
// Prints one "ok:"/"FAIL:" line per check; exits 1 if any failed, 2 on a setup error.
#include <drm_fourcc.h>
#include <xf86drmMode.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "capture/still_image.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/scope_renderer.hpp"
#include "core/stages/scale_reference.hpp"
#include "platform/kms_properties.hpp"
#include "tests/support/base64_words.hpp"
#include "tests/vm/tools/kms_check_util.hpp"

using namespace esf;
using namespace esf::kmscheck;

namespace {

struct Options {
  std::string card = "/dev/dri/card0";
  std::string crc_dir = "/sys/kernel/debug/dri/0/crtc-0/crc";
  std::string out = "/tmp/kms_check";
  int occluder_zpos = 5;
  Rect occluder{400, 200, 160, 120};
  int expect_zpos = -1;    // the zpos esframe was asked for
  Rect expect_rect{};      // the rect esframe was asked for
  Rect scene_mode{};       // modeset: the scene's mode (W and H used)
  int term_after_ms = -1;  // SIGTERM esframe this long after its plane is first seen in use
  std::string png_graph;   // esframe's PNG of the graph: also compared, to isolate the display path
  GraphScope scope = GraphScope::kNone;   // esframe draws this scope (drm:scope=) on the plane
  bool frame = false;                     // esframe shows its frame on the primary plane
  std::vector<std::string> frame_images;  // JSONL line j showed image (j / frame_repeat) % size
  int frame_repeat = 1;
  int graph_alpha = 255;  // the graph's background alpha
  std::vector<std::string> command;
};

Options parse(int argc, char** argv) {
  Options o;
  int i = 2;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--card")
      o.card = next();
    else if (a == "--crc-dir")
      o.crc_dir = next();
    else if (a == "--out")
      o.out = next();
    else if (a == "--occluder-zpos")
      o.occluder_zpos = std::stoi(next());
    else if (a == "--occluder")
      o.occluder = parseRect(next());
    else if (a == "--expect-zpos")
      o.expect_zpos = std::stoi(next());
    else if (a == "--expect-rect")
      o.expect_rect = parseRect(next());
    else if (a == "--png-graph")
      o.png_graph = next();
    else if (a == "--scope") {
      const std::string name = next();
      if (name == "waveform")
        o.scope = GraphScope::kWaveform;
      else if (name == "parade")
        o.scope = GraphScope::kParade;
      else if (name == "vectorscope")
        o.scope = GraphScope::kVectorscope;
      else
        die("--scope " + name + ": expected waveform, parade or vectorscope");
    } else if (a == "--scene-mode")
      o.scene_mode = parseRect("0,0," + [](std::string t) {
        if (t.find('x') != std::string::npos) t[t.find('x')] = ',';
        return t;
      }(next()));
    else if (a == "--frame")
      o.frame = true;
    else if (a == "--frame-images") {
      std::stringstream list(next());
      for (std::string path; std::getline(list, path, ',');) o.frame_images.push_back(path);
    } else if (a == "--frame-repeat")
      o.frame_repeat = std::max(1, std::stoi(next()));
    else if (a == "--graph-alpha")
      o.graph_alpha = std::stoi(next());
    else if (a == "--term-after-ms")
      o.term_after_ms = std::stoi(next());
    else
      die("unknown option " + a);
  }
  for (; i < argc; ++i) o.command.push_back(argv[i]);
  if (o.command.empty()) die("no command after --");
  return o;
}

std::vector<nlohmann::json> jsonlLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  if (lines.empty()) die("no JSONL line in " + path);
  return lines;
}

// The histogram of one of esframe's JSONL lines -> the graph the drm output must have drawn.
RgbaImage expectedGraph(const nlohmann::json& j, int width, int height,
                        uint8_t background_alpha = 255) {
  HistogramData hist;
  hist.bins = j.at("bins").get<int>();
  for (char c : std::string("rgbl"))
    if (j.at("hist").contains(std::string(1, c))) hist.channels += c;
  hist.counts.resize(size_t(hist.bins) * hist.channels.size());
  for (size_t c = 0; c < hist.channels.size(); ++c) {
    auto bins = j.at("hist").at(std::string(1, hist.channels[c])).get<std::vector<uint32_t>>();
    if (int(bins.size()) != hist.bins) die("JSONL hist has the wrong bin count");
    for (int b = 0; b < hist.bins; ++b)
      hist.counts[size_t(b) * hist.channels.size() + c] = bins[size_t(b)];
  }
  const uint64_t pixels = j.at("width").get<uint64_t>() * j.at("height").get<uint64_t>();
  std::vector<float> scale;
  for (const ChannelScale& s : scaleReference(hist.counts, hist.bins, hist.channelCount(), pixels))
    scale.push_back(s.scale);
  return renderGraphReference(hist, scale, width, height, kPlainGraph, {}, background_alpha);
}

// The scope graph esframe draws without decorations, from the counts of a JSONL line (its
// "scopes", docs/output-formats.md).
RgbaImage expectedScope(const nlohmann::json& j, GraphScope scope, int width, int height) {
  const nlohmann::json& s = j.at("scopes");
  ScopeCounts counts;
  counts.columns = s.at("columns").get<int>();
  for (const char* name : {"waveform", "parade", "vectorscope"})
    if (s.contains(name)) {
      std::vector<uint32_t> words = test::base64Words(s.at(name).at("data").get<std::string>());
      (name[0] == 'w'   ? counts.waveform
       : name[0] == 'p' ? counts.parade
                        : counts.vectorscope) = std::move(words);
    }
  GraphOptions options;
  options.decorations = false;
  options.scope = scope;
  Result<RgbaImage> image = renderScopeReference(counts, width, height, options);
  if (!image) die(image.error().message);
  return std::move(image.value());
}

// The screen esframe must show for `image` with `graph` at `r`, in 16 bits per channel as vkms
// composes: the image scaled to the largest centred rectangle of its aspect (sides rounded to
// the nearest pixel), each screen pixel taking the image pixel under its centre, black around;
// the graph over it by the premultiplied blend out = (src * 0xffff + dst * (0xffff - a)) / 0xffff,
// rounded, with 8-bit values widened by * 257. Returns XRGB16161616 words, row by row.
std::vector<uint64_t> composeFrameScreen(const RgbaImage& image, const RgbaImage& graph,
                                         const Rect& r, uint32_t W, uint32_t H) {
  const uint64_t iw = uint64_t(image.width), ih = uint64_t(image.height);
  uint64_t fw = W, fh = H;
  if (iw * H >= ih * W)
    fh = std::max<uint64_t>(1, (2 * ih * W + iw) / (2 * iw));
  else
    fw = std::max<uint64_t>(1, (2 * iw * H + ih) / (2 * ih));
  const Rect fit{int32_t((W - fw) / 2), int32_t((H - fh) / 2), uint32_t(fw), uint32_t(fh)};
  std::vector<uint64_t> screen(size_t(W) * H);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      uint32_t c[3] = {0, 0, 0};  // r, g, b in 16 bits
      if (fit.contains(x, y)) {
        const uint64_t sx = ((2 * uint64_t(x - uint32_t(fit.x)) + 1) * iw) / (2 * fw);
        const uint64_t sy = ((2 * uint64_t(y - uint32_t(fit.y)) + 1) * ih) / (2 * fh);
        const uint8_t* p = image.at(int(sx), int(sy));
        for (int k = 0; k < 3; ++k) c[k] = p[k] * 257u;
      }
      if (r.contains(x, y)) {
        const uint8_t* g = graph.at(int(x - uint32_t(r.x)), int(y - uint32_t(r.y)));
        const uint64_t a = g[3] * 257u;
        for (int k = 0; k < 3; ++k)
          c[k] = uint32_t((g[k] * 257u * uint64_t(0xffff) + c[k] * (0xffff - a) + 0x7fff) / 0xffff);
      }
      screen[size_t(y) * W + x] =
          uint64_t(0xffff) << 48 | uint64_t(c[0]) << 32 | uint64_t(c[1]) << 16 | c[2];
    }
  return screen;
}

// Step 4 and 5 of the frame scene: a reference screen per source image on the primary plane
// alone (XRGB16161616, the graph plane off), its CRC among the run's; writeback of the last.
int frameReferences(const Options& o, Card& card, const Pipe& pipe, const KmsPlaneState& primary,
                    std::optional<CrcReader>& crc_reader, std::map<uint32_t, uint32_t>& run_crcs,
                    const Rect& r) {
  if (o.frame_images.empty()) die("--frame needs --frame-images");
  const uint32_t W = pipe.mode.hdisplay, H = pipe.mode.vdisplay;
  const std::vector<nlohmann::json> lines = jsonlLines(o.out + ".out");
  std::map<size_t, size_t> line_of_image;  // the first JSONL line that showed each image
  for (size_t j = 0; j < lines.size(); ++j)
    line_of_image.emplace((j / size_t(o.frame_repeat)) % o.frame_images.size(), j);
  std::printf("run CRCs:");
  for (const auto& [c, n] : run_crcs) std::printf(" 0x%08x x%u", c, n);
  std::printf("\n");
  DumbBuffer reference(card.fd(), W, H, DRM_FORMAT_XRGB16161616);
  std::set<uint32_t> reference_crcs;
  std::vector<uint64_t> screen;
  for (const auto& [image_index, line] : line_of_image) {
    const std::string& path = o.frame_images[image_index];
    Result<RgbaImage> image = loadStillImage(path);
    if (!image) die("cannot read " + path + ": " + image.error().message);
    const RgbaImage graph = expectedGraph(lines[line], int(r.w), int(r.h), uint8_t(o.graph_alpha));
    screen = composeFrameScreen(image.value(), graph, r, W, H);
    for (uint32_t y = 0; y < H; ++y)
      for (uint32_t x = 0; x < W; ++x) reference.px64(x, y) = screen[size_t(y) * W + x];
    KmsAtomicRequest req;
    card.addPlane(req, primary, pipe, reference.fb(), Rect{0, 0, W, H});
    card.commit(req, 0, "a reference screen");
    const uint32_t ref_crc = crc_reader->settle(card.fd(), pipe.crtc_id);
    reference_crcs.insert(ref_crc);
    check(run_crcs.count(ref_crc) == 1, "the screen showed " + path + " under the graph of frame " +
                                            std::to_string(line) + " (reference CRC 0x" +
                                            hex(ref_crc) + ")");
  }
  check(reference_crcs.size() == line_of_image.size(),
        "the " + std::to_string(line_of_image.size()) + " reference screens all differ");
  // Writeback of the last reference screen: the 16-bit composition rounded to 8 bits as vkms
  // writes XRGB8888 (DIV_ROUND_CLOSEST(v, 257)).
  crc_reader.reset();
  std::vector<uint32_t> written = card.writeback(pipe);
  size_t bad = 0;
  for (size_t i = 0; i < written.size(); ++i) {
    uint32_t want = 0;
    for (int k = 0; k < 3; ++k)
      want |= uint32_t(((screen[i] >> (16 * k)) & 0xffff) + 128) / 257 << (8 * k);
    bad += (written[i] & 0xffffff) != want;
  }
  check(bad == 0, "writeback of the last reference screen == the CPU composition (" +
                      std::to_string(bad) + " pixels differ)");
  return finish();
}

int runScene(const Options& o) {
  Card card(o.card);
  card.becomeMaster();
  Pipe pipe = card.findPipe();
  const uint32_t W = pipe.mode.hdisplay, H = pipe.mode.vdisplay;
  std::vector<KmsPlaneState> planes = card.planes(pipe.crtc_index);
  // --occluder-zpos 0: no occluder.
  if (o.occluder_zpos < 0 || o.occluder_zpos >= int(planes.size())) die("bad --occluder-zpos");
  const KmsPlaneState& primary = planes[0];
  const KmsPlaneState& occluder_plane = planes[size_t(o.occluder_zpos)];
  const bool occluded = o.occluder_zpos > 0;
  if (primary.type != DRM_PLANE_TYPE_PRIMARY) die("plane order: position 0 is not the primary");

  // 1. The scene: a gradient background and an opaque occluder.
  DumbBuffer background(card.fd(), W, H, DRM_FORMAT_XRGB8888);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) background.px(x, y) = backgroundPixel(x, y);
  DumbBuffer occluder(card.fd(), o.occluder.w, o.occluder.h, DRM_FORMAT_ARGB8888);
  for (uint32_t y = 0; y < o.occluder.h; ++y)
    for (uint32_t x = 0; x < o.occluder.w; ++x) occluder.px(x, y) = kOccluderPixel;
  {
    KmsAtomicRequest req;
    card.addModeset(req, pipe);
    card.addPlane(req, primary, pipe, background.fb(), Rect{0, 0, W, H});
    if (occluded) card.addPlane(req, occluder_plane, pipe, occluder.fb(), o.occluder);
    card.commit(req, DRM_MODE_ATOMIC_ALLOW_MODESET, "the scene");
  }
  std::optional<CrcReader> crc_reader(std::in_place, o.crc_dir);
  CrcReader& crc = *crc_reader;
  const uint32_t scene_crc = crc.settle(card.fd(), pipe.crtc_id);
  std::printf("scene: primary %u, %s, CRC 0x%08x\n", primary.id,
              occluded ? ("occluder on plane " + std::to_string(occluder_plane.id) + " (position " +
                          std::to_string(o.occluder_zpos) + ")")
                             .c_str()
                       : "no occluder",
              scene_crc);

  // 2. esframe runs as DRM master.
  card.dropMaster();
  std::set<uint32_t> ours = {primary.id, occluder_plane.id};
  std::map<uint32_t, uint32_t> run_crcs;   // crc -> how many vblanks showed it
  std::map<uint32_t, KmsPlaneState> used;  // planes esframe showed something on
  std::set<uint32_t> primary_fbs;          // framebuffers on the primary other than the scene's
  Child child = Child::spawn(o.command, o.out + ".out", o.out + ".err");
  int status = -1;
  std::optional<std::chrono::steady_clock::time_point> term_at;
  bool term_sent = false;
  while (!child.poll(&status)) {
    for (uint32_t c : crc.drain(20)) ++run_crcs[c];
    for (const KmsPlaneState& p : card.planes(pipe.crtc_index)) {
      if (!ours.count(p.id) && p.fb_id != 0) used[p.id] = p;
      if (p.id == primary.id && p.fb_id != background.fb()) primary_fbs.insert(p.fb_id);
    }
    // --term-after-ms: SIGTERM once the graph has been on screen that long (a kiosk stopped).
    if (o.term_after_ms >= 0 && !used.empty() && !term_at)
      term_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.term_after_ms);
    if (term_at && !term_sent && std::chrono::steady_clock::now() >= *term_at) {
      std::printf("sending SIGTERM to esframe\n");
      child.signal(SIGTERM);
      term_sent = true;
    }
  }
  for (uint32_t c : crc.drain(20)) ++run_crcs[c];
  std::printf("esframe exited with %d; %zu distinct CRCs while it ran\n", status, run_crcs.size());
  check(status == 0, "esframe run exited 0 (stderr: " + o.out + ".err)");

  if (o.frame)
    check(!primary_fbs.empty(), "esframe showed its frame on the primary plane (" +
                                    std::to_string(primary_fbs.size()) + " framebuffers seen)");
  else
    check(primary_fbs.empty(), "frame=off: esframe left the primary plane alone");
  check(used.size() == 1,
        "esframe showed its graph on exactly one plane (" + std::to_string(used.size()) + ")");
  uint32_t graph_plane = 0;
  if (!used.empty()) {
    const KmsPlaneState& p = used.begin()->second;
    graph_plane = p.id;
    std::printf("esframe used plane %u (%s, position %d) at %d,%d %ux%u\n", p.id,
                p.type == DRM_PLANE_TYPE_OVERLAY ? "overlay" : "not an overlay", p.position,
                p.crtc_rect.x, p.crtc_rect.y, p.crtc_rect.w, p.crtc_rect.h);
    check(p.type == DRM_PLANE_TYPE_OVERLAY, "the graph plane is an overlay");
    if (o.expect_zpos >= 0)
      check(p.position == o.expect_zpos,
            "the graph plane sits at the requested zpos " + std::to_string(o.expect_zpos));
    if (o.expect_rect.w)
      check(
          p.crtc_rect == o.expect_rect && p.src_w == o.expect_rect.w && p.src_h == o.expect_rect.h,
          "the graph plane has the requested rect, unscaled");
  }

  // 3. Released and restored.
  card.setMaster();
  for (const KmsPlaneState& p : card.planes(pipe.crtc_index))
    if (p.id == graph_plane)
      check(p.fb_id == 0 && p.crtc_id == 0,
            "on exit esframe released plane " + std::to_string(p.id));
  check(card.plane(pipe.crtc_index, primary.id).fb_id == background.fb(),
        "after exit the primary plane shows the scene's framebuffer again");
  const uint32_t after_crc = crc.settle(card.fd(), pipe.crtc_id);
  check(after_crc == scene_crc,
        "after exit the screen is the scene again (CRC 0x" + hex(after_crc) + ")");
  if (!graph_plane) return finish();

  // 4. The reference commit of the expected image.
  const Rect r = used.begin()->second.crtc_rect;
  const int graph_position = used.begin()->second.position;
  if (o.frame) return frameReferences(o, card, pipe, primary, crc_reader, run_crcs, r);
  const nlohmann::json last = jsonlLines(o.out + ".out").back();
  RgbaImage graph = o.scope == GraphScope::kNone ? expectedGraph(last, int(r.w), int(r.h))
                                                 : expectedScope(last, o.scope, int(r.w), int(r.h));
  writePpm(o.out + ".expected.ppm", graph);  // for a look when the CRC disagrees
  // Shows `image` on the graph plane and returns the CRC of the screen.
  auto referenceCrc = [&](const RgbaImage& image, DumbBuffer& buffer) {
    for (uint32_t y = 0; y < r.h; ++y)
      for (uint32_t x = 0; x < r.w; ++x) buffer.px(x, y) = argb(image.at(int(x), int(y)));
    KmsAtomicRequest req;
    card.addPlane(req, card.plane(pipe.crtc_index, graph_plane), pipe, buffer.fb(), r);
    card.commit(req, 0, "a reference image");
    return crc.settle(card.fd(), pipe.crtc_id);
  };
  std::printf("run CRCs:");
  for (const auto& [c, n] : run_crcs) std::printf(" 0x%08x x%u", c, n);
  std::printf("\n");
  if (!o.png_graph.empty()) {
    // The display path alone: the screen against esframe's own PNG of the same graph.
    Result<RgbaImage> png = loadStillImage(o.png_graph);
    if (!png || png->width != int(r.w) || png->height != int(r.h))
      die("cannot use " + o.png_graph + " as a " + std::to_string(r.w) + "x" + std::to_string(r.h) +
          " graph");
    DumbBuffer png_buffer(card.fd(), r.w, r.h, DRM_FORMAT_ARGB8888);
    const uint32_t png_crc = referenceCrc(png.value(), png_buffer);
    check(run_crcs.count(png_crc) == 1,
          "esframe's screen equals its own PNG graph (CRC 0x" + hex(png_crc) + ")");
  }
  DumbBuffer reference(card.fd(), r.w, r.h, DRM_FORMAT_ARGB8888);
  const uint32_t ref_crc = referenceCrc(graph, reference);
  std::printf("reference CRC 0x%08x, seen %d times during the run\n", ref_crc,
              run_crcs.count(ref_crc) ? int(run_crcs[ref_crc]) : 0);
  check(ref_crc != scene_crc, "the graph changes the screen");
  check(run_crcs.count(ref_crc) == 1, "esframe's screen equals the reference image (CRTC CRC)");

  // 5. Writeback: the reference screen, pixel for pixel.
  // Stop the CRC capture first: it makes vkms compose every vblank, slow in a TCG guest.
  crc_reader.reset();
  std::vector<uint32_t> screen = card.writeback(pipe);
  size_t bad = 0, first_bad = 0;
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      // Every layer is opaque: the topmost one that covers the pixel shows.
      uint32_t want = backgroundPixel(x, y);
      const bool graph_on_top = graph_position > o.occluder_zpos;
      if (!graph_on_top && r.contains(x, y)) want = argb(graph.at(int(x - r.x), int(y - r.y)));
      if (occluded && o.occluder.contains(x, y)) want = kOccluderPixel;
      if (graph_on_top && r.contains(x, y)) want = argb(graph.at(int(x - r.x), int(y - r.y)));
      if ((screen[size_t(y) * W + x] & 0xffffff) != (want & 0xffffff) && !bad++)
        first_bad = size_t(y) * W + x;
    }
  check(bad == 0, "writeback of the reference screen == background, graph and occluder stacked (" +
                      std::to_string(bad) + " pixels differ" +
                      (bad ? ", first at " + std::to_string(first_bad % W) + "," +
                                 std::to_string(first_bad / W)
                           : "") +
                      ")");
  return finish();
}

// kms_check modeset [options] -- ESFRAME...: the scene at a mode that is not the preferred one
// (--scene-mode WxH), so esframe must modeset, and on exit must put the old mode, the scene's
// primary framebuffer and the connector routing back. Checked through the properties (a
// modeset restarts the CRTC, so no CRC here).
int runModeset(const Options& o) {
  Card card(o.card);
  card.becomeMaster();
  Pipe pipe = card.findPipe();
  const drmModeModeInfo preferred = pipe.mode;
  bool found = false;
  for (const drmModeModeInfo& m : pipe.modes)
    if (m.hdisplay == o.scene_mode.w && m.vdisplay == o.scene_mode.h && !found) {
      pipe.mode = m;
      found = true;
    }
  if (!found)
    die("the connector has no mode " + std::to_string(o.scene_mode.w) + "x" +
        std::to_string(o.scene_mode.h));
  const uint32_t W = pipe.mode.hdisplay, H = pipe.mode.vdisplay;
  std::vector<KmsPlaneState> planes = card.planes(pipe.crtc_index);
  const KmsPlaneState& primary = planes[0];
  DumbBuffer background(card.fd(), W, H, DRM_FORMAT_XRGB8888);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) background.px(x, y) = backgroundPixel(x, y);
  {
    KmsAtomicRequest req;
    card.addModeset(req, pipe);
    card.addPlane(req, primary, pipe, background.fb(), Rect{0, 0, W, H});
    card.commit(req, DRM_MODE_ATOMIC_ALLOW_MODESET, "the scene");
  }
  card.dropMaster();
  Child child = Child::spawn(o.command, o.out + ".out", o.out + ".err");
  int status = -1;
  std::set<std::pair<int, int>> modes_with_graph;
  uint32_t graph_plane = 0;
  while (!child.poll(&status)) {
    // The mode read before and after the planes: esframe's first commit and its restore change
    // mode and plane at once, so a sample is kept only when no commit fell between the reads.
    const std::pair<int, int> mode_before = card.crtcMode(pipe.crtc_id);
    for (const KmsPlaneState& p : card.planes(pipe.crtc_index))
      if (p.id != primary.id && p.fb_id != 0) {
        graph_plane = p.id;
        if (card.crtcMode(pipe.crtc_id) == mode_before) modes_with_graph.insert(mode_before);
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::printf("esframe exited with %d\n", status);
  check(status == 0, "esframe run exited 0");
  check(graph_plane != 0, "esframe showed its graph on a plane");
  const std::pair<int, int> want{preferred.hdisplay, preferred.vdisplay};
  check(modes_with_graph.size() == 1 && *modes_with_graph.begin() == want,
        "while the graph showed, the CRTC ran the preferred mode " + std::to_string(want.first) +
            "x" + std::to_string(want.second));
  card.setMaster();
  check(card.crtcMode(pipe.crtc_id) == std::make_pair(int(W), int(H)),
        "after exit the CRTC is back at the scene's mode " + std::to_string(W) + "x" +
            std::to_string(H));
  for (const KmsPlaneState& p : card.planes(pipe.crtc_index)) {
    if (p.id == primary.id)
      check(p.fb_id == background.fb() && p.crtc_rect == (Rect{0, 0, W, H}),
            "after exit the primary plane shows the scene's framebuffer again");
    else if (p.id == graph_plane)
      check(p.fb_id == 0 && p.crtc_id == 0,
            "on exit esframe released plane " + std::to_string(p.id));
  }
  KmsPropertyTable conn = card.connectorProps(pipe.connector_id);
  check(conn.value("CRTC_ID") == pipe.crtc_id, "the connector still drives the CRTC");
  return finish();
}

int runHold(const Options& o) {
  Card card(o.card);
  card.becomeMaster();
  Child child = Child::spawn(o.command, o.out + ".out", o.out + ".err");
  int status = -1;
  while (!child.poll(&status)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::printf("command exited with %d while DRM master was held\n", status);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: kms_check scene|hold [options] -- COMMAND...");
  std::string mode = argv[1];
  Options o = parse(argc, argv);
  if (mode == "scene") return runScene(o);
  if (mode == "modeset") return runModeset(o);
  if (mode == "hold") return runHold(o);
  die("unknown mode " + mode);
}
