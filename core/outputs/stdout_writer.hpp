#pragma once
// Writes whole records to stdout with write(2): a record goes out in one call when the pipe
// takes it (a line is never torn by stdio buffering), looping only on short writes. A closed
// reader (EPIPE; the process ignores SIGPIPE) becomes ErrorCode::kOutputClosed, which ends a
// run without failing it.
#include <string_view>

#include "esframe/base/result.hpp"

namespace esf {

Status writeRecord(int fd, std::string_view bytes);

}  // namespace esf
