#include "apps/python/frame_from_buffer.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#include "apps/python/errors.hpp"
#include "esframe/base/sizes.hpp"

namespace py = pybind11;

namespace esf::python {
namespace {

// How a format's frame looks as numpy arrays. The public API names the formats but not their
// layout, so the shapes this binding takes are spelled out here.
enum class Layout {
  kPacked,      // one HxW (bytes_per_pixel 1 or 16-bit Bayer) or HxWxN uint8 array
  kSemiPlanar,  // NV12/NV21: Y, then interleaved CbCr at half width and height
  kPlanar,      // Y, Cb, Cr planes with the chroma subsampling below
};

struct FormatLayout {
  Layout layout = Layout::kPacked;
  int bytes_per_pixel = 1;  // kPacked: 1, 2 (YUYV pairs, 16-bit Bayer words), 3 or 4
  int item_size = 1;        // 2: the array holds uint16 values (Bayer 10/12/16)
  int chroma_h = 1, chroma_v = 1;
  bool even_width = false;  // YUYV/UYVY pack two pixels in 4 bytes
};

std::optional<FormatLayout> formatLayout(PixelFormat f) {
  switch (f) {
    case PixelFormat::kRGBA32:
    case PixelFormat::kXRGB32:
    case PixelFormat::kARGB32:
    case PixelFormat::kXBGR32:
    case PixelFormat::kABGR32:
      return FormatLayout{Layout::kPacked, 4};
    case PixelFormat::kRGB24:
    case PixelFormat::kBGR24:
      return FormatLayout{Layout::kPacked, 3};
    case PixelFormat::kYUYV:
    case PixelFormat::kUYVY:
      return FormatLayout{Layout::kPacked, 2, 1, 1, 1, true};
    case PixelFormat::kGREY:
    case PixelFormat::kSBGGR8:
    case PixelFormat::kSGBRG8:
    case PixelFormat::kSGRBG8:
    case PixelFormat::kSRGGB8:
      return FormatLayout{Layout::kPacked, 1};
    case PixelFormat::kSBGGR10:
    case PixelFormat::kSGBRG10:
    case PixelFormat::kSGRBG10:
    case PixelFormat::kSRGGB10:
    case PixelFormat::kSBGGR12:
    case PixelFormat::kSGBRG12:
    case PixelFormat::kSGRBG12:
    case PixelFormat::kSRGGB12:
    case PixelFormat::kSBGGR16:
    case PixelFormat::kSGBRG16:
    case PixelFormat::kSGRBG16:
    case PixelFormat::kSRGGB16:
      return FormatLayout{Layout::kPacked, 2, 2};
    case PixelFormat::kNV12:
    case PixelFormat::kNV21:
      return FormatLayout{Layout::kSemiPlanar, 1, 1, 2, 2};
    case PixelFormat::kYU12:
      return FormatLayout{Layout::kPlanar, 1, 1, 2, 2};
    case PixelFormat::kYUV422P:
      return FormatLayout{Layout::kPlanar, 1, 1, 2, 1};
    case PixelFormat::kYUV444P:
      return FormatLayout{Layout::kPlanar, 1, 1, 1, 1};
    default:
      return std::nullopt;  // MJPEG and the MIPI-packed Bayer formats: no fixed array shape
  }
}

int ceilDiv(int a, int b) {
  return (a + b - 1) / b;
}

// The array's dims after the first as packed bytes: the last dim's items adjacent, each dim's
// stride the product of those inside it. Dims of length 1 have no meaningful stride.
bool innerDimsPacked(const py::buffer_info& b) {
  int64_t expected = b.itemsize;
  for (py::ssize_t d = b.ndim - 1; d >= 1; --d) {
    if (b.shape[size_t(d)] != 1 && b.strides[size_t(d)] != expected) return false;
    expected *= b.shape[size_t(d)];
  }
  return true;
}

int64_t innerBytes(const py::buffer_info& b) {
  int64_t n = b.itemsize;
  for (py::ssize_t d = 1; d < b.ndim; ++d) n *= b.shape[size_t(d)];
  return n;
}

// Rows at a positive stride of at least a row (and within a frame buffer: FramePlane::stride is
// an int); `packed_rows`: exactly a row apart, as one array of planar rows needs.
bool fitsStrides(const py::buffer_info& b, bool packed_rows) {
  if (b.ndim < 1) return false;
  if (!innerDimsPacked(b)) return false;
  if (b.shape[0] <= 1) return true;
  return packed_rows ? b.strides[0] == innerBytes(b)
                     : b.strides[0] >= innerBytes(b) && uint64_t(b.strides[0]) <= kMaxFrameBytes;
}

void checkDtype(const py::buffer_info& b, int item_size, const char* what) {
  const std::string& f = b.format;
  const bool u8 = b.itemsize == 1 && (f == "B" || f == "=B" || f == "<B" || f == "|u1");
  const bool u16 = b.itemsize == 2 && (f == "H" || f == "=H" || f == "<H");
  if (item_size == 1 ? !u8 : !u16)
    raise(ErrorCode::kInvalidArgument, what, ": the array holds '", f, "' items of ",
          std::to_string(b.itemsize), " bytes; the format needs ",
          item_size == 1 ? "uint8" : "uint16");
}

std::string shapeText(const py::buffer_info& b) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < b.ndim; ++d)
    s += (d ? ", " : "") + std::to_string(b.shape[size_t(d)]);
  return s + (b.ndim == 1 ? ",)" : ")");
}

class Builder {
 public:
  Builder(InputFrame& out) : out_(out) {}

  // The buffer of `obj`, copied once to C order when its strides do not fit a frame's rows.
  const py::buffer_info& view(py::object obj, int item_size, const char* what,
                              bool packed_rows = false) {
    if (!py::isinstance<py::buffer>(obj))
      raise(ErrorCode::kInvalidArgument, what, ": a ",
            std::string(py::str(py::type::of(obj).attr("__name__"))),
            " is not an array (numpy array or buffer protocol object expected)");
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
    checkDtype(info, item_size, what);
    if (!fitsStrides(info, packed_rows)) {
      info = py::buffer_info();
      obj = py::module_::import("numpy").attr("ascontiguousarray")(obj);
      info = py::reinterpret_borrow<py::buffer>(obj).request();
      out_.copied = true;
    }
    out_.owners.push_back(obj);
    out_.views.push_back(std::move(info));
    return out_.views.back();
  }

  void addPlane(const py::buffer_info& b, int64_t first_row, int64_t rows, int64_t row_bytes,
                int64_t stride) {
    const uint8_t* base = static_cast<const uint8_t*>(b.ptr);
    FramePlane& p = out_.frame.planes[size_t(out_.frame.plane_count++)];
    p.data = base + first_row * b.strides[0];
    p.stride = int(stride);
    p.size = size_t(stride * (rows - 1) + row_bytes);
  }

 private:
  InputFrame& out_;
};

void requireShape(const py::buffer_info& b, bool ok, const char* what, const std::string& wanted) {
  if (!ok) raise(ErrorCode::kInvalidArgument, what, ": shape ", shapeText(b), " is not ", wanted);
}

int64_t rowStride(const py::buffer_info& b) {
  return b.shape[0] <= 1 ? innerBytes(b) : b.strides[0];
}

void setSize(InputFrame& out, int64_t width, int64_t height) {
  check(checkFrameSize("array", width, height));
  out.frame.width = int(width);
  out.frame.height = int(height);
}

void packedFrame(Builder& build, InputFrame& out, const py::object& input, const FormatLayout& l,
                 const char* name) {
  const int channels = l.item_size == 1 ? l.bytes_per_pixel : 1;
  const py::buffer_info& b = build.view(input, l.item_size, "frame");
  const std::string wanted = channels == 1
                                 ? std::string("(height, width) for ") + name
                                 : "(height, width, " + std::to_string(channels) + ") for " + name;
  requireShape(b, channels == 1 ? b.ndim == 2 : (b.ndim == 3 && b.shape[2] == channels), "frame",
               wanted);
  setSize(out, b.shape[1], b.shape[0]);
  if (l.even_width && b.shape[1] % 2)
    raise(ErrorCode::kInvalidArgument, "frame: ", name, " needs an even width, not ",
          std::to_string(b.shape[1]));
  build.addPlane(b, 0, b.shape[0], innerBytes(b), rowStride(b));
}

// Planar formats as one array of the planes' rows one after another (V4L2's contiguous layout
// of an even-sized frame), or as a tuple of one array per plane.
void planarFrame(Builder& build, InputFrame& out, const py::object& input, const FormatLayout& l,
                 const char* name) {
  const int planes = l.layout == Layout::kSemiPlanar ? 2 : 3;
  if (py::isinstance<py::tuple>(input) || py::isinstance<py::list>(input)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(input);
    if (py::len(seq) != size_t(planes))
      raise(ErrorCode::kInvalidArgument, "frame: ", name, " takes ", std::to_string(planes),
            " plane arrays, not ", std::to_string(py::len(seq)));
    const py::buffer_info& y = build.view(seq[0], 1, "plane 0");
    requireShape(y, y.ndim == 2, "plane 0", "(height, width)");
    setSize(out, y.shape[1], y.shape[0]);
    const int64_t cw = ceilDiv(int(y.shape[1]), l.chroma_h),
                  ch = ceilDiv(int(y.shape[0]), l.chroma_v);
    build.addPlane(y, 0, y.shape[0], y.shape[1], rowStride(y));
    for (int i = 1; i < planes; ++i) {
      const char* what = i == 1 ? "plane 1" : "plane 2";
      const py::buffer_info& c = build.view(seq[size_t(i)], 1, what);
      const int64_t row_bytes = planes == 2 ? cw * 2 : cw;
      const bool ok = c.shape[0] == ch && innerBytes(c) == row_bytes &&
                      (c.ndim == 2 || (c.ndim == 3 && planes == 2 && c.shape[2] == 2));
      requireShape(
          c, ok, what,
          "(" + std::to_string(ch) + ", " + std::to_string(planes == 2 ? cw * 2 : cw) + ")" +
              (planes == 2 ? " or (" + std::to_string(ch) + ", " + std::to_string(cw) + ", 2)"
                           : std::string()));
      build.addPlane(c, 0, ch, row_bytes, rowStride(c));
    }
    return;
  }
  // Planar chroma rows are width / chroma_h bytes, packed two or one to an array row: such an
  // array is read in place only without row padding.
  const py::buffer_info& b = build.view(input, 1, "frame", planes == 3);
  // The whole array's rows per picture row, as a fraction: 4:2:0 3/2, 4:2:2 2/1, 4:4:4 3/1.
  const int64_t num = l.chroma_v == 2 ? 3 : (l.chroma_h == 2 ? 2 : 3), den = l.chroma_v;
  requireShape(b, b.ndim == 2 && b.shape[0] % num == 0, "frame",
               std::string("(height * ") + (den == 2 ? "3 / 2" : std::to_string(num)) +
                   ", width) for " + name);
  const int64_t width = b.shape[1];
  const int64_t height = b.shape[0] / num * den;
  if (width % l.chroma_h || height % l.chroma_v)
    raise(ErrorCode::kInvalidArgument, "frame: ", name, " as one array needs a width divisible by ",
          std::to_string(l.chroma_h), " and a height by ", std::to_string(l.chroma_v),
          "; give odd sizes as a tuple of planes");
  setSize(out, width, height);
  const int64_t stride = rowStride(b);
  build.addPlane(b, 0, height, width, stride);
  if (planes == 2) {  // the CbCr rows follow at the same stride
    build.addPlane(b, height, height / 2, width, stride);
    return;
  }
  const int64_t cw = width / l.chroma_h, ch = height / l.chroma_v;
  const uint8_t* base = static_cast<const uint8_t*>(b.ptr);
  for (int i = 1; i < 3; ++i) {
    FramePlane& p = out.frame.planes[size_t(out.frame.plane_count++)];
    p.data = base + width * height + (i - 1) * cw * ch;
    p.stride = int(cw);
    p.size = size_t(cw * ch);
  }
}

}  // namespace

InputFrame frameFromBuffer(const py::object& input, const FrameMetadata& meta) {
  InputFrame out;
  Frame& f = out.frame;
  if (input.is_none())
    raise(ErrorCode::kInvalidArgument,
          "frame: None is not a frame (an array of (height, width[, channels]), a buffer with "
          "a format, or a tuple of planes with a format)");
  if (meta.format) {
    f.format = unwrap(parsePixelFormat(*meta.format));
  } else {
    if (!py::isinstance<py::buffer>(input))
      raise(ErrorCode::kInvalidArgument, "frame: a tuple of planes needs a format (\"NV12\", ...)");
    py::buffer_info b = py::reinterpret_borrow<py::buffer>(input).request();
    if (b.ndim == 3 && b.shape[2] == 4)
      f.format = PixelFormat::kRGBA32;
    else if (b.ndim == 3 && b.shape[2] == 3)
      f.format = PixelFormat::kRGB24;
    else if (b.ndim == 2)
      f.format = PixelFormat::kGREY;
    else
      raise(ErrorCode::kInvalidArgument, "frame: shape ", shapeText(b),
            " is none of (height, width, 4) RGBA32, (height, width, 3) RGB24, (height, width) "
            "GREY; name the format");
  }
  const char* name = formatName(f.format);
  const std::optional<FormatLayout> layout = formatLayout(f.format);
  if (!layout) raise(ErrorCode::kUnsupported, "frame: ", name, " frames have no array layout here");
  if (meta.colorimetry == "bt601")
    f.colorimetry.encoding = YcbcrEncoding::kBt601;
  else if (meta.colorimetry == "bt709")
    f.colorimetry.encoding = YcbcrEncoding::kBt709;
  else
    raise(ErrorCode::kInvalidArgument, "colorimetry '", meta.colorimetry,
          "' is not bt601 or bt709");
  f.colorimetry.full_range = meta.full_range;
  f.sequence = meta.seq;
  f.timestamp_ns = meta.ts_ns;
  f.source = meta.source;
  Builder build(out);
  if (layout->layout == Layout::kPacked)
    packedFrame(build, out, input, *layout, name);
  else
    planarFrame(build, out, input, *layout, name);
  return out;
}

}  // namespace esf::python
