// RowPool hands out every row exactly once, in bands that are contiguous and disjoint.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "core/cpu/row_pool.hpp"

namespace esf {
namespace {

TEST(RowPool, EveryRowOnceInContiguousBands) {
  for (int threads : {1, 2, 3, 8}) {
    RowPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int rows : {1, 2, 3, 7, 8, 1000}) {
      std::vector<std::atomic<int>> seen(static_cast<size_t>(rows));
      std::vector<int> band_rows(static_cast<size_t>(threads), 0);
      pool.forEachBand(rows, [&](int begin, int end, int index) {
        EXPECT_LT(begin, end);
        band_rows[size_t(index)] = end - begin;
        for (int y = begin; y < end; ++y) seen[size_t(y)]++;
      });
      for (int y = 0; y < rows; ++y)
        ASSERT_EQ(seen[size_t(y)].load(), 1)
            << threads << " threads, " << rows << " rows, row " << y;
      int total = 0;
      for (int n : band_rows) total += n;
      EXPECT_EQ(total, rows);
    }
  }
}

TEST(RowPool, ZeroMeansOnePerCore) {
  RowPool pool(0);
  EXPECT_GE(pool.threads(), 1);
  int calls = 0;
  pool.forEachBand(0, [&](int, int, int) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace esf
