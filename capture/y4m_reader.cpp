#include "capture/y4m_reader.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/pixel_format.hpp"
#include "esframe/base/sizes.hpp"

namespace esf {
namespace {

constexpr size_t kMaxHeaderLine = 4096;

// One '\n'-terminated line, without the '\n'. Fails on EOF before '\n' or on an overlong line.
Result<std::string> readLine(FILE* in, const std::string& name, const char* what) {
  std::string line;
  for (;;) {
    const int c = std::fgetc(in);
    if (c == EOF && std::ferror(in))
      return fail(ErrorCode::kIo, name, ": reading the ", what, " failed");
    if (c == EOF) return fail(ErrorCode::kTruncated, name, ": truncated ", what);
    if (c == '\n') return line;
    if (line.size() >= kMaxHeaderLine)
      return fail(ErrorCode::kCorruptData, name, ": ", what, " is too long");
    line.push_back(char(c));
  }
}

bool parseInt(const std::string& s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  out = std::atoi(s.c_str());
  return true;
}

}  // namespace

Result<Y4mHeader> Y4mReader::readHeader(FILE* in, const std::string& name,
                                        const std::string& consumed) {
  auto line = readLine(in, name, "Y4M header");
  if (!line) return line.error();
  line->insert(0, consumed);
  const std::string magic = "YUV4MPEG2";
  if (line->compare(0, magic.size(), magic) != 0)
    return fail(ErrorCode::kCorruptData, name, ": not a Y4M file");
  Y4mHeader h;
  size_t pos = magic.size();
  while (pos < line->size()) {
    if ((*line)[pos] == ' ') {
      ++pos;
      continue;
    }
    const size_t end = std::min(line->find(' ', pos), line->size());
    const std::string token = line->substr(pos, end - pos);
    pos = end;
    const char tag = token[0];
    const std::string value = token.substr(1);
    bool ok = true;
    if (tag == 'W')
      ok = parseInt(value, h.width);
    else if (tag == 'H')
      ok = parseInt(value, h.height);
    else if (tag == 'F') {
      const size_t colon = value.find(':');
      ok = colon != std::string::npos && parseInt(value.substr(0, colon), h.fps_num) &&
           parseInt(value.substr(colon + 1), h.fps_den) && h.fps_num > 0 && h.fps_den > 0;
    } else if (tag == 'C') {
      h.chroma = value;
      if (value == "420jpeg" || value == "420paldv" || value == "420mpeg2" || value == "420")
        h.format = PixelFormat::kYU12;
      else if (value == "422")
        h.format = PixelFormat::kYUV422P;
      else if (value == "444")
        h.format = PixelFormat::kYUV444P;
      else if (value == "mono")
        h.format = PixelFormat::kGREY;
      else
        return fail(ErrorCode::kUnsupported, name, ": unsupported Y4M chroma 'C", value, "'");
    } else if (tag == 'X') {
      if (value == "COLORRANGE=FULL")
        h.colorimetry.full_range = true;
      else if (value == "COLORRANGE=LIMITED")
        h.colorimetry.full_range = false;
    } else if (tag == 'I' || tag == 'A') {
      // Interlacing and pixel aspect do not change the bytes.
    } else {
      ok = false;
    }
    if (!ok) return fail(ErrorCode::kCorruptData, name, ": bad Y4M header field '", token, "'");
  }
  if (h.width <= 0 || h.height <= 0)
    return fail(ErrorCode::kCorruptData, name, ": Y4M header lacks W or H");
  if (Status s = checkFrameSize(name + ": Y4M header", h.width, h.height, ErrorCode::kUnsupported);
      !s)
    return s.error();
  return h;
}

Status Y4mReader::checkFileHoldsAFrame(int fd, const Y4mHeader& h, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return {};
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || st.st_size <= at) return {};  // no frame at all: an empty video
  auto size = frameSize(h.format, h.width, h.height);
  if (!size) return fail(size.error().code, name, ": ", size.error().message);
  const uint64_t left = uint64_t(st.st_size - at);
  // "FRAME\n" and the frame's bytes at least.
  if (left < uint64_t(*size) + 6)
    return fail(ErrorCode::kTruncated, name, ": truncated Y4M: its header declares ",
                std::to_string(h.width), "x", std::to_string(h.height), " ", formatName(h.format),
                " frames of ", std::to_string(*size), " bytes, and the file holds ",
                std::to_string(left), " bytes after the header");
  return {};
}

Result<bool> Y4mReader::readFrame(FILE* in, const Y4mHeader& h, const std::string& name,
                                  uint64_t index, std::vector<uint8_t>& out,
                                  const ReadBytes& payload) {
  const int first = std::fgetc(in);
  if (first == EOF && std::ferror(in))
    return fail(ErrorCode::kIo, name, ": reading Y4M frame ", std::to_string(index), " failed");
  if (first == EOF) return false;
  std::ungetc(first, in);
  auto line = readLine(in, name, "Y4M frame header");
  if (!line)
    return fail(line.error().code, line.error().message, " (frame ", std::to_string(index), ")");
  if (line->compare(0, 5, "FRAME") != 0 || (line->size() > 5 && (*line)[5] != ' '))
    return fail(ErrorCode::kCorruptData, name, ": bad Y4M frame header at frame ",
                std::to_string(index));
  auto size = frameSize(h.format, h.width, h.height);
  if (!size) return fail(size.error().code, name, ": ", size.error().message);
  bool failed = false;
  // A header that declares more than the stream sends costs a chunk, not the whole frame.
  const size_t got = readGrowing(in, payload, out, 0, *size, failed);
  if (got != *size)
    return fail(failed ? ErrorCode::kIo : ErrorCode::kTruncated, name, ": truncated Y4M frame ",
                std::to_string(index), " (", std::to_string(got), " of ", std::to_string(*size),
                " bytes)");
  return true;
}

}  // namespace esf
