#pragma once
// How the Y4M and raw readers read a frame's payload: fread by default, or a caller's function
// that reads straight from a file descriptor (InterruptibleFile::readDirect: no stdio buffer).
#include <cstdint>
#include <cstdio>
#include <functional>

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

}  // namespace esf
