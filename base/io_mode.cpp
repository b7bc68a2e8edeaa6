// IoMode's name (include/esframe/source.hpp). Stateless and self-contained: the libcamera module
// compiles this file too (capture/CMakeLists.txt), where it would otherwise need a call through
// its host table for a name.
#include "base/io_mode.hpp"

namespace esf {

const char* toString(IoMode mode) {
  return nameIn(kIoModeNames, mode);
}

}  // namespace esf
