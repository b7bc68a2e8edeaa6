// `esframe run --output png:DIR,scope=...`: the graph PNG of each scope equals the CPU reference
// drawn from the counts the same run printed in its JSONL (which has the scope without
// --scopes: the graph asks for it), on the GPU and on the CPU executor.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/outputs/scope_renderer.hpp"
#include "tests/core/outputs/png_test_util.hpp"
#include "tests/support/base64_words.hpp"
#include "tests/support/run_command.hpp"

namespace esf::run_scope_graph_test {
namespace {

namespace fs = std::filesystem;

TEST(RunScopeGraph, PngEqualsTheReferenceOfThePrintedCounts) {
  struct Scope {
    const char* name;
    GraphScope scope;
  };
  for (const char* backend : {"gles", "cpu"})
    for (const Scope& s :
         {Scope{"waveform", GraphScope::kWaveform}, Scope{"parade", GraphScope::kParade},
          Scope{"vectorscope", GraphScope::kVectorscope}}) {
      SCOPED_TRACE(std::string(backend) + " " + s.name);
      char tmpl[] = "/tmp/esframe-scope-graph-XXXXXX";
      const fs::path dir = mkdtemp(tmpl);
      const test::CommandResult r = test::runEsframe(
          {"run", "--frames", "1", "--size", "50x30", "--backend", backend, "--output", "jsonl",
           "--output", "png:" + dir.string() + ",graph=97x61,decor=off,scope=" + s.name});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const nlohmann::json record = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
      const nlohmann::json& j = record["scopes"];
      ScopeCounts counts;
      counts.columns = j["columns"];
      EXPECT_EQ(counts.columns, 50);
      EXPECT_EQ(j.size(), s.scope == GraphScope::kVectorscope ? 3u : 2u) << j.dump().substr(0, 80);
      std::vector<uint32_t>& field = s.scope == GraphScope::kWaveform ? counts.waveform
                                     : s.scope == GraphScope::kParade ? counts.parade
                                                                      : counts.vectorscope;
      field = test::base64Words(j[s.name]["data"]);
      GraphOptions options;
      options.decorations = false;
      options.scope = s.scope;
      Result<RgbaImage> want = renderScopeReference(counts, 97, 61, options);
      ASSERT_TRUE(want) << want.error().message;
      const RgbaImage graph = test::loadPng((dir / "graph-00000000.png").string());
      EXPECT_TRUE(graph == want.value());
      int lit = 0;
      for (size_t i = 0; i < graph.pixels.size(); i += 4) lit += graph.pixels[i + 1] != 0;
      EXPECT_GT(lit, 0) << "the pattern's scope draws something";
      fs::remove_all(dir);
    }
}

}  // namespace
}  // namespace esf::run_scope_graph_test
