#pragma once
// IoMode's names (include/esframe/source.hpp), one table for toString (io_mode.cpp) and
// parseIoMode (api_names.cpp).
#include "base/enum_names.hpp"
#include "esframe/source.hpp"

namespace esf {

inline constexpr EnumName<IoMode> kIoModeNames[] = {
    {IoMode::kAuto, "auto"},
    {IoMode::kMmap, "mmap"},
    {IoMode::kDmabuf, "dmabuf"},
    {IoMode::kExpbuf, "expbuf"},
};

}  // namespace esf
