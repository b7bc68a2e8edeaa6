#include <gtest/gtest.h>

#include "glsl_es/embedded_file.hpp"
#include "platform/shader_library.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
extern const EmbeddedFile esf_test_shaders[];
extern const std::size_t esf_test_shaders_count;

namespace {

ShaderLibrary testLibrary() {
  return ShaderLibrary({esf_test_shaders, esf_test_shaders_count});
}

TEST(ShaderLibrary, ComputeWritesKnownValuesToSsbo) {
  test::glContext();
  Result<GlProgram> program = testLibrary().compute(
      "write_pattern.comp", ShaderDefines().set("MULTIPLIER", 3).set("OFFSET", 7));
  ASSERT_TRUE(program.ok()) << program.error().message;
  constexpr GLuint kCount = 1000;  // not a multiple of the workgroup size
  GlBuffer buffer = makeBuffer();
  std::vector<uint32_t> poison(kCount + 24, test::kPoison);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(poison.size() * 4), poison.data(),
               GL_DYNAMIC_COPY);
  glUseProgram(program->get());
  glUniform1ui(glGetUniformLocation(program->get(), "u_count"), kCount);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer.get());
  glDispatchCompute((kCount + 63) / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  ASSERT_TRUE(checkGl("dispatch").ok());
  std::vector<uint32_t> got = test::readBuffer(buffer.get(), poison.size());
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], i * 3 + 7) << "word " << i;
  // Past the end nothing was written: the shader honours u_count.
  for (size_t i = kCount; i < got.size(); ++i) ASSERT_EQ(got[i], test::kPoison) << "word " << i;
}

// Each broken shader: how its one-line error starts (the file and line, and the shader that
// included it), and the driver's word for what is wrong there.
struct BrokenShader {
  const char* name;
  const char* message_start;
  const char* symbol;
};
constexpr BrokenShader kBrokenShaders[] = {
    {"broken.comp", "glsl_es/broken.comp:5: ", "undefined_symbol_on_line_5"},
    {"broken_in_include.comp",
     "glsl_es/common/stray_call.glsl:4 (included by broken_in_include.comp): ",
     "undefined_function_on_line_4"},
    // The lines after an include keep their numbers.
    {"broken_after_include.comp",
     "glsl_es/broken_after_include.comp:7: ", "undefined_symbol_on_line_7"},
};

TEST(ShaderLibrary, ErrorNamesTheFileAndLineAlsoInAndAfterAnInclude) {
  test::glContext();
  for (const BrokenShader& b : kBrokenShaders) {
    SCOPED_TRACE(b.name);
    Result<GlProgram> program = testLibrary().compute(b.name);
    ASSERT_FALSE(program.ok());
    const std::string& m = program.error().message;
    EXPECT_EQ(m.rfind(b.message_start, 0), 0u) << m;
    EXPECT_NE(m.find(b.symbol), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

TEST(ShaderLibrary, UnknownShaderIsAnError) {
  Result<std::string_view> s = testLibrary().source("nope.comp");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("nope.comp"), std::string::npos);
}

TEST(ShaderLibrary, PreambleDefinesComeBeforeLineOne) {
  std::string p = ShaderDefines().set("BINS", 256).set("WG", 64).preamble();
  EXPECT_EQ(p.rfind("#version 310 es\n", 0), 0u);
  EXPECT_NE(p.find("#define BINS 256\n"), std::string::npos);
  EXPECT_NE(p.find("#define WG 64\n"), std::string::npos);
  EXPECT_EQ(p.substr(p.size() - 8), "#line 1\n");
}

TEST(ShaderLibrary, BuiltinShadersAllCompile) {
  test::glContext();
  // Shaders that need #defines declare defaults under #ifndef, so each compiles as it stands.
  for (const EmbeddedFile& f : builtinShaders()) {
    if (f.name.empty()) continue;
    bool compute = f.name.ends_with(".comp");
    if (!compute) continue;
    Result<GlProgram> p = ShaderLibrary::builtin().compute(f.name);
    EXPECT_TRUE(p.ok()) << p.error().message;
  }
}

}  // namespace
}  // namespace esf
