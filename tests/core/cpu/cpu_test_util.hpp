#pragma once
// Shared by the executor tests: the thread counts every stage runs with, a poisoned image, and a
// run on every instruction set.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <cstring>

#include "esframe/rgba_image.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf::test {

// 1: everything on the caller; 2: this machine's cores; 5: more bands than some images have rows.
constexpr int kThreadCounts[] = {1, 2, 5};

// A w x h image of kPoison pixels: an output pixel a stage fails to write keeps it.
inline RgbaImage poisonedImage(int w, int h) {
  RgbaImage img(w, h);
  for (size_t i = 0; i < img.pixels.size(); i += 4) std::memcpy(&img.pixels[i], &kPoison, 4);
  return img;
}

// Runs `check` once per instruction set this CPU has and the build compiled (AVX-512, AVX2, SSE4,
// ..., the emulated one): each has its own lane count and tails.
template <class Check>
void onEveryTarget(const Check& check) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    SCOPED_TRACE(hwy::TargetName(target));
    hwy::SetSupportedTargetsForTest(target);
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace esf::test
