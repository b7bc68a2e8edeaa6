// RowPool hands out every row exactly once, in bands that are contiguous and disjoint, or in
// stripes of the asked height, never two at once to one thread index.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(RowPool, EveryRowOnceInStripes) {
  for (int threads : {1, 2, 3, 8}) {
    RowPool pool(threads);
    for (int rows : {1, 15, 16, 17, 1000})
      for (int stripe : {0, 1, 16}) {
        SCOPED_TRACE(testing::Message()
                     << threads << " threads, " << rows << " rows, stripe " << stripe);
        const int height = stripe < 1 ? 1 : stripe;
        std::vector<std::atomic<int>> seen(static_cast<size_t>(rows));
        std::vector<std::atomic<int>> busy(static_cast<size_t>(threads));
        std::atomic<int> calls{0}, overlapping{0}, misshapen{0};
        pool.forEachStripe(rows, stripe, [&](int begin, int end, int index) {
          if (busy[size_t(index)]++ != 0) overlapping++;
          if (begin % height != 0 || end - begin != std::min(height, rows - begin)) misshapen++;
          for (int y = begin; y < end; ++y) seen[size_t(y)]++;
          calls++;
          busy[size_t(index)]--;
        });
        for (int y = 0; y < rows; ++y) ASSERT_EQ(seen[size_t(y)].load(), 1) << "row " << y;
        EXPECT_EQ(calls.load(), (rows + height - 1) / height);
        EXPECT_EQ(overlapping.load(), 0);
        EXPECT_EQ(misshapen.load(), 0);
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
