// IoMode's names (include/esframe/source.hpp). Stateless and self-contained: the libcamera module
// compiles this file too (capture/CMakeLists.txt), where it would otherwise need a call through
// its host table for a switch.
#include "esframe/source.hpp"

namespace esf {

const char* toString(IoMode mode) {
  switch (mode) {
    case IoMode::kAuto:
      return "auto";
    case IoMode::kMmap:
      return "mmap";
    case IoMode::kDmabuf:
      return "dmabuf";
    case IoMode::kExpbuf:
      return "expbuf";
  }
  return "?";
}

}  // namespace esf
