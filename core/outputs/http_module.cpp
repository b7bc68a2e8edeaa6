// libesframe-http.so's entry point and its JPEG encoder: the server (http_server.cpp) and
// libturbojpeg live in the module, so runs without --output http never load libmicrohttpd,
// GnuTLS or libturbojpeg. A static libesframe links this code in (ESF_MODULES_LINKED).
#include <turbojpeg.h>

#include "core/outputs/http_server.hpp"

namespace esf {
namespace http_module {

const HttpHost* g_host = nullptr;

namespace {

Result<std::string> encodeJpeg(const RgbaImage& image, int quality) {
  std::unique_ptr<void, int (*)(tjhandle)> tj(tjInitCompress(), tjDestroy);
  if (!tj) return fail(ErrorCode::kOutOfMemory, "HTTP sink: cannot start libturbojpeg");
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  if (tjCompress2(tj.get(), image.pixels.data(), image.width, image.width * 4, image.height,
                  TJPF_RGBA, &jpeg, &size, TJSAMP_420, quality, TJFLAG_FASTDCT) != 0) {
    tjFree(jpeg);
    return fail(ErrorCode::kInternal,
                "HTTP sink: JPEG encoding failed: ", tjGetErrorStr2(tj.get()));
  }
  std::string bytes(reinterpret_cast<const char*>(jpeg), size);
  tjFree(jpeg);
  return bytes;
}

const HttpModule kModule{&HttpServer::start, &encodeJpeg};

}  // namespace
}  // namespace http_module
}  // namespace esf

extern "C" const esf::HttpModule* esf_http_module_v1(const esf::HttpHost* host) {
  esf::http_module::g_host = host;
  return &esf::http_module::kModule;
}
