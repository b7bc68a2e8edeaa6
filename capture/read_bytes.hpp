#pragma once
// How the Y4M and raw readers read a frame's payload: fread by default, or a caller's function
// that reads straight from a file descriptor (InterruptibleFile::readDirect: no stdio buffer).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace esf {

// Reads up to `size` bytes into `dst`; fewer only at the end of the stream or on an error, which
// sets `failed`.
using ReadBytes = std::function<size_t(uint8_t* dst, size_t size, bool& failed)>;

// `read` when given, else fread from `in`.
inline size_t readPayload(FILE* in, const ReadBytes& read, uint8_t* dst, size_t size,
                          bool& failed) {
  if (read) return read(dst, size, failed);
  const size_t got = std::fread(dst, 1, size, in);
  failed = std::ferror(in) != 0;
  return got;
}

// `out` holds `from` bytes of a frame of `size`; reads the rest and returns how many bytes the
// frame has then (fewer than `size` at the end of the stream or on an error, which sets
// `failed`). A buffer that held such a frame before is read into at once; a new one grows a chunk
// at a time with what arrives, so a header or size that promises more than the stream holds
// costs one chunk, not the whole frame.
inline size_t readGrowing(FILE* in, const ReadBytes& read, std::vector<uint8_t>& out, size_t from,
                          size_t size, bool& failed) {
  constexpr size_t kChunk = size_t(16) << 20;
  failed = false;
  if (out.capacity() >= size) {
    out.resize(size);
    return from + readPayload(in, read, out.data() + from, size - from, failed);
  }
  size_t got = from;
  while (got < size && !failed) {
    const size_t chunk = std::min(size - got, kChunk);
    out.resize(got + chunk);
    const size_t n = readPayload(in, read, out.data() + got, chunk, failed);
    got += n;
    if (n < chunk) break;
  }
  return got;
}

}  // namespace esf
