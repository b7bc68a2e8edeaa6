#pragma once
// The guard's libmicrohttpd callback, apart from core/outputs/http_guard.hpp so that the headers
// a build without libmicrohttpd compiles (http_server.hpp, through http_output.hpp) do not need
// <microhttpd.h>. Only the module's sources include it.
#include <microhttpd.h>

namespace esf {

// libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback; `cls` is the guard. It tells the guard of
// every connection from its accept to its close, with its socket and its client's address.
void httpConnectionEvent(void* cls, MHD_Connection* connection, void** socket_context,
                         MHD_ConnectionNotificationCode code);

}  // namespace esf
