// The include resolver and the driver-log parser (platform/shader_source.hpp): no GPU.
#include <gtest/gtest.h>

#include <array>

#include "platform/shader_source.hpp"

namespace esf {
namespace {

constexpr std::string_view kMain = "main.comp";

TEST(ShaderIncludes, IncludeIsReplacedByTheFileBetweenLineDirectives) {
  const std::array<EmbeddedFile, 2> files = {
      EmbeddedFile{kMain, "a\n#include \"common/x.glsl\"\nb\n"},
      EmbeddedFile{"common/x.glsl", "x1\nx2"}};  // no newline at the end
  Result<ResolvedShader> r = resolveShaderIncludes(files, kMain);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Line L of file N (0 the shader, 1 its first include) is line N * 10000 + L.
  EXPECT_EQ(r->text, "a\n#line 10001\nx1\nx2\n#line 3\nb\n");
  EXPECT_EQ(r->files, (std::vector<std::string>{"main.comp", "common/x.glsl"}));
}

TEST(ShaderIncludes, DriverLineNumbersBackToFileAndLine) {
  ResolvedShader r;
  r.files = {"main.comp", "common/x.glsl", "common/y.glsl"};
  const auto place = [&](int line) {
    const ShaderLine at = r.place(line);
    return at.file + ":" + std::to_string(at.line);
  };
  EXPECT_EQ(place(12), "main.comp:12");
  EXPECT_EQ(place(10004), "common/x.glsl:4");
  EXPECT_EQ(place(29999), "common/y.glsl:9999");
  EXPECT_EQ(place(0), "main.comp:0");          // a log line with no location
  EXPECT_EQ(place(30001), "main.comp:30001");  // no such file: the number as it is
}

TEST(ShaderIncludes, EachFileOnceAndNoLoop) {
  // main includes a and b, b includes a and main: a once, main once, the later lines empty.
  const std::array<EmbeddedFile, 3> files = {
      EmbeddedFile{kMain, "#include \"common/a.glsl\"\n#include \"common/b.glsl\"\nm\n"},
      EmbeddedFile{"common/a.glsl", "a\n"},
      EmbeddedFile{"common/b.glsl",
                   "  #  include \"common/a.glsl\"  // again\n"
                   "#include \"main.comp\"\nb\n"}};
  Result<ResolvedShader> r = resolveShaderIncludes(files, kMain);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->text,
            "#line 10001\na\n#line 2\n"
            "#line 20001\n\n\nb\n#line 3\n"
            "m\n");
  EXPECT_EQ(r->files, (std::vector<std::string>{"main.comp", "common/a.glsl", "common/b.glsl"}));
}

TEST(ShaderIncludes, NestedIncludeKeepsEachFilesNumbers) {
  const std::array<EmbeddedFile, 3> files = {
      EmbeddedFile{kMain, "m1\n#include \"common/outer.glsl\"\nm3\n"},
      EmbeddedFile{"common/outer.glsl", "o1\n#include \"common/inner.glsl\"\no3\n"},
      EmbeddedFile{"common/inner.glsl", "i1\n"}};
  Result<ResolvedShader> r = resolveShaderIncludes(files, kMain);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->text, "m1\n#line 10001\no1\n#line 20001\ni1\n#line 10003\no3\n#line 3\nm3\n");
}

// Each refused pair of files (the shader and the one file it may include): the error's code and
// a part of its message.
struct Refusal {
  std::string_view main_text, other_name, other_text;
  ErrorCode code;
  std::string_view message;
};
constexpr Refusal kRefusals[] = {
    {"#include \"common/outer.glsl\"\n", "common/outer.glsl", "o1\n#include \"common/gone.glsl\"\n",
     ErrorCode::kNotFound,
     "glsl_es/main.comp: glsl_es/common/outer.glsl:2: #include \"common/gone.glsl\": the shader "
     "library has no file glsl_es/common/gone.glsl"},
    {"#if A\n#endif\n#ifdef B\n#include \"common/x.glsl\"\n#endif\n", "common/x.glsl", "x\n",
     ErrorCode::kInvalidArgument, "glsl_es/main.comp:4: #include \"common/x.glsl\" inside #if"},
    {"#include <common/x.glsl>\n", "common/x.glsl", "x\n", ErrorCode::kInvalidArgument,
     "glsl_es/main.comp:1: an #include names its file"},
    {"#include \"common/x.glsl\n", "common/x.glsl", "x\n", ErrorCode::kInvalidArgument,
     "glsl_es/main.comp:1: an #include names its file"},
    {"#include \"common/x.glsl\" x\n", "common/x.glsl", "x\n", ErrorCode::kInvalidArgument,
     "glsl_es/main.comp:1: an #include names its file"},
    {"#include\n", "common/x.glsl", "x\n", ErrorCode::kInvalidArgument,
     "glsl_es/main.comp:1: an #include names its file"},
};

TEST(ShaderIncludes, MissingConditionalOrMalformedIncludeIsRefused) {
  for (const Refusal& want : kRefusals) {
    SCOPED_TRACE(want.main_text);
    const std::array<EmbeddedFile, 2> files = {EmbeddedFile{kMain, want.main_text},
                                               EmbeddedFile{want.other_name, want.other_text}};
    Result<ResolvedShader> r = resolveShaderIncludes(files, kMain);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, want.code);
    EXPECT_NE(r.error().message.find(want.message), std::string::npos) << r.error().message;
  }
}

TEST(ShaderIncludes, UnknownShaderIsNotFound) {
  Result<ResolvedShader> r = resolveShaderIncludes({}, "nope.comp");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_NE(r.error().message.find("nope.comp"), std::string::npos);
}

// Every shader of the library resolves, and what the driver gets has no #include left.
TEST(ShaderIncludes, EveryBuiltinShaderResolves) {
  size_t with_includes = 0;
  for (const EmbeddedFile& f : builtinShaders()) {
    if (f.name.empty()) continue;
    Result<ResolvedShader> r = resolveShaderIncludes(builtinShaders(), f.name);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->text.find("#include"), std::string::npos) << f.name;
    if (r->files.size() > 1) ++with_includes;
  }
  // histogram, reduce, frame_difference, sobel and the common files that include others.
  EXPECT_GE(with_includes, 4u);
}

TEST(DriverLog, MesaAndNvidiaLocations) {
  std::optional<LogLocation> mesa = parseLogLocation("0:12(5): error: `x' undeclared");
  ASSERT_TRUE(mesa);
  EXPECT_EQ(mesa->source, 0);
  EXPECT_EQ(mesa->line, 12);
  EXPECT_EQ(mesa->message, "error: `x' undeclared");
  std::optional<LogLocation> included = parseLogLocation("  3:140(22): warning: unused\r");
  ASSERT_TRUE(included);
  EXPECT_EQ(included->source, 3);
  EXPECT_EQ(included->line, 140);
  EXPECT_EQ(included->message, "warning: unused");
  std::optional<LogLocation> nvidia = parseLogLocation("0(7) : error C1008: undefined variable");
  ASSERT_TRUE(nvidia);
  EXPECT_EQ(nvidia->source, 0);
  EXPECT_EQ(nvidia->line, 7);
  EXPECT_EQ(nvidia->message, "error C1008: undefined variable");
}

TEST(DriverLog, LinesWithoutALocation) {
  for (std::string_view line :
       {"error: linking failed", "", "0:12: error", "0:12(5) error", "0(12) error", "a:1(1): x",
        "0:x(1): error", "-1:2(3): error", "99999999999:1(1): error: too big a number",
        "0:99999999999(1): error"})
    EXPECT_FALSE(parseLogLocation(line)) << line;
}

}  // namespace
}  // namespace esf
