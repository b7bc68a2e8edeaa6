// esframe-startup-probe: where a headless GLES process's start-up and exit go on the EGL device
// platform, step by step, with nothing of esframe's in it (bench/nvidia/e2e.sh times the whole
// process around it). It answers "is it the driver or us": each EGL/GL step is timed from main,
// and the process's exit (after main) is what the caller's wall clock adds.
//   esframe-startup-probe [plain|robust|lose] [terminate|leave] [upload]
// upload: after the dispatches, the host CPU time a frame's upload costs through the driver alone
// (the figure esframe -v's CPU time per frame is compared with): 120 frames of 1920x1080 RGBA
// into a texture (glTexSubImage2D) and of 3 MB into a buffer (glBufferSubData), each followed by
// one small dispatch whose word is read back, as the pipeline waits for every frame.
// plain/robust/lose: the context's attributes (esframe asks for robust access and, where it is
// offered, a lost context on reset); terminate: destroy and eglTerminate before returning;
// leave: return from main with the context current (the kernel frees it at exit).
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const auto g_start = std::chrono::steady_clock::now();

void step(const char* what) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_start).count();
  std::fprintf(stderr, "[%7.2f ms] %s\n", ms, what);
}

int die(const char* what) {
  std::fprintf(stderr, "esframe-startup-probe: %s failed (EGL 0x%x, GL 0x%x)\n", what,
               eglGetError(), glGetError());
  return 1;
}

const char* kShader = R"(#version 310 es
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Data { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] += 1u; }
)";

// GLES has no glGetBufferSubData: map the bound storage buffer's first word.
GLuint readFirstWord() {
  const void* p = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 4, GL_MAP_READ_BIT);
  GLuint v = 0;
  if (p) std::memcpy(&v, p, 4);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  return v;
}

double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// CPU milliseconds per frame of `frames` uploads, each waited for through a read-back.
template <typename Upload>
double uploadCpuMs(int frames, Upload&& upload) {
  upload(0);  // the first: allocations and setup
  readFirstWord();
  const double start = processCpuMs();
  for (int i = 1; i <= frames; ++i) {
    upload(i);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    readFirstWord();
  }
  return (processCpuMs() - start) / frames;
}

// The upload rows (see the top of the file); the storage buffer is bound at binding 0.
void uploadRows() {
  const int w = 1920, h = 1080, frames = 120;
  std::vector<unsigned char> rgba(size_t(w) * h * 4), yuv(size_t(w) * h * 3 / 2);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = (unsigned char)(i * 2654435761u >> 24);
  for (size_t i = 0; i < yuv.size(); ++i) yuv[i] = rgba[i];
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
  const double texture_ms = uploadCpuMs(frames, [&](int i) {
    rgba[0] = (unsigned char)i;
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  });
  step("120 RGBA 1920x1080 texture uploads, each waited for");
  GLuint upload_buffer = 0;
  glGenBuffers(1, &upload_buffer);
  glBindBuffer(GL_COPY_WRITE_BUFFER, upload_buffer);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(yuv.size()), nullptr, GL_STREAM_DRAW);
  const double buffer_ms = uploadCpuMs(frames, [&](int i) {
    yuv[0] = (unsigned char)i;
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(yuv.size()), yuv.data());
  });
  step("120 uploads of 3 MB (a 1080p 4:2:0 frame) into a buffer, each waited for");
  const double wait_ms = uploadCpuMs(frames, [](int) {});
  step("120 frames of one dispatch and its read-back alone");
  std::fprintf(stderr,
               "  CPU per frame: texture 1080p RGBA %.3f ms, buffer 3 MB %.3f ms, dispatch and "
               "read-back alone %.3f ms\n",
               texture_ms, buffer_ms, wait_ms);
  glDeleteBuffers(1, &upload_buffer);
  glDeleteTextures(1, &texture);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "lose";
  const bool terminate = !(argc > 2 && std::strcmp(argv[2], "leave") == 0);
  const bool upload = argc > 3 && std::strcmp(argv[3], "upload") == 0;
  step("main");
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (!query_devices) return die("eglGetProcAddress(eglQueryDevicesEXT)");
  step("eglGetProcAddress (the vendor library loaded)");
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!query_devices(16, devices, &count) || count == 0) return die("eglQueryDevicesEXT");
  step("eglQueryDevicesEXT");
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
  if (dpy == EGL_NO_DISPLAY) return die("eglGetPlatformDisplay");
  step("eglGetPlatformDisplay");
  EGLint major = 0, minor = 0;
  if (!eglInitialize(dpy, &major, &minor)) return die("eglInitialize");
  step("eglInitialize");
  eglBindAPI(EGL_OPENGL_ES_API);
  std::vector<EGLint> attribs = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1};
  if (variant != "plain") attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_ROBUST_ACCESS, 1});
  if (variant == "lose")
    attribs.insert(attribs.end(),
                   {EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET});
  attribs.push_back(EGL_NONE);
  EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs.data());
  if (ctx == EGL_NO_CONTEXT) return die("eglCreateContext");
  step(("eglCreateContext (" + variant + ")").c_str());
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return die("eglMakeCurrent");
  step("eglMakeCurrent");
  std::fprintf(stderr, "  %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  step("glGetString");

  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &kShader, nullptr);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return die("glLinkProgram");
  step("a compute program compiled and linked");
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  std::vector<GLuint> zeros(1 << 20, 0);  // 4 MB: about a 1080p 4:2:0 frame
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(zeros.size() * 4), zeros.data(),
               GL_DYNAMIC_DRAW);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  step("a 4 MB buffer uploaded");
  glUseProgram(program);
  glDispatchCompute(GLuint(zeros.size() / 256), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const GLuint first = readFirstWord();
  step("the first dispatch, read back");
  for (int i = 0; i < 60; ++i) {
    // Each dispatch reads what the one before wrote: GLES orders them only with a barrier.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glDispatchCompute(GLuint(zeros.size() / 256), 1, 1);
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const GLuint last = readFirstWord();
  step("60 more dispatches, read back");
  if (first != 1 || last != 61) {
    std::fprintf(stderr, "esframe-startup-probe: the shader counted %u and %u, not 1 and 61\n",
                 first, last);
    return 1;
  }
  if (upload) uploadRows();
  if (!terminate) {
    step("leaving main with the context current");
    return 0;
  }
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  glDeleteShader(shader);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(dpy, ctx);
  step("eglDestroyContext");
  eglTerminate(dpy);
  step("eglTerminate; leaving main");
  return 0;
}
