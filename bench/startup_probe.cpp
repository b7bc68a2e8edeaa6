// esframe-startup-probe: where a headless GLES process's start-up and exit go on the EGL device
// platform, step by step, with nothing of esframe's in it (bench/nvidia/e2e.sh times the whole
// process around it). It answers "is it the driver or us": each EGL/GL step is timed from main,
// and the process's exit (after main) is what the caller's wall clock adds.
//   esframe-startup-probe [plain|robust|lose] [terminate|leave]
// plain/robust/lose: the context's attributes (esframe asks for robust access and, where it is
// offered, a lost context on reset); terminate: destroy and eglTerminate before returning;
// leave: return from main with the context current (the kernel frees it at exit).
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

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

}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "lose";
  const bool terminate = !(argc > 2 && std::strcmp(argv[2], "leave") == 0);
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
