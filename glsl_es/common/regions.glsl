// Per-region sums of a health stage (frame_difference.comp, sobel.comp): GRID_COLUMNS x GRID_ROWS
// cells, then ROIS rectangles (u_rois), REGION_VALUES (1 or 2) sums of 64 bits a region.
// An invocation adds its pixels' values in registers and goes to shared memory only when its
// cell changes and at the end (a shared add per pixel, a whole workgroup on one word, serializes).
// Every shared sum is 64 bits (lo, hi): a workgroup's sum of Sobel m passes 32 bits.
// The shader defines REGION_VALUES, and REGION_TOTALS and REGION_TOTALS_AT: the buffer array and
// word where value k of region r goes, at REGION_TOTALS_AT + 2 * (r * REGION_VALUES + k), low
// word first; and declares `uniform uvec2 u_size` before it includes this. Calls (all
// invocations):
//   regionsBegin, a barrier, addToRegions (or addToRegionsOfColumn) per pixel, flushRegions, a
//   barrier, publishRegions.
#ifndef GRID_COLUMNS
#define GRID_COLUMNS 0
#endif
#ifndef GRID_ROWS
#define GRID_ROWS 0
#endif
#ifndef ROIS
#define ROIS 0
#endif
#define REGIONS (GRID_COLUMNS * GRID_ROWS + ROIS)
#if REGIONS > 0
#if ROIS > 0
uniform uvec4 u_rois[ROIS];  // x0, y0, x1, y1: columns [x0, x1) of rows [y0, y1)
#endif
const uint kRegionSlots = uint(REGIONS * REGION_VALUES);
shared uint s_region_lo[kRegionSlots];
shared uint s_region_hi[kRegionSlots];

// A region's values: a uint for one, a uvec2 for two (one value in a uvec2 cost Midgard
// registers: its unused halves are not all dropped).
#if REGION_VALUES > 1
#define RegionSums uvec2
#else
#define RegionSums uint
#endif

// This invocation's sums of its current cell, and of each rectangle.
uint g_cell = 0u;
RegionSums g_cell_sums = RegionSums(0u);
#if ROIS > 0
RegionSums g_roi_sums[ROIS];
#endif

void regionsBegin(uint lid, uint invocations) {
  for (uint i = lid; i < kRegionSlots; i += invocations) {
    s_region_lo[i] = 0u;
    s_region_hi[i] = 0u;
  }
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) g_roi_sums[i] = RegionSums(0u);
#endif
}

void addToSlot(uint slot, uint v) {
  if (v == 0u) return;
  uint before = atomicAdd(s_region_lo[slot], v);
  if (before + v < before) atomicAdd(s_region_hi[slot], 1u);
}

void addToRegion(uint r, RegionSums sums) {
#if REGION_VALUES > 1
  addToSlot(r * 2u, sums.x);
  addToSlot(r * 2u + 1u, sums.y);
#else
  addToSlot(r, sums);
#endif
}

// The grid cell of pixel `a` (two divisions: a caller that can finds it without).
uint cellOf(uvec2 a) {
  uint column = a.x * uint(GRID_COLUMNS) / u_size.x, row = a.y * uint(GRID_ROWS) / u_size.y;
  return row * uint(GRID_COLUMNS) + column;
}

// Adds `values` to the sums of grid cell `cell` (kept in registers while the cell stays).
void addToCell(uint cell, RegionSums values) {
#if GRID_COLUMNS > 0
  if (cell != g_cell) {
    addToRegion(g_cell, g_cell_sums);
    g_cell = cell;
    g_cell_sums = RegionSums(0u);
  }
  g_cell_sums += values;
#endif
}

// Pixel `a`, in grid cell `cell`, adds `values` to the sums of the regions it lies in.
void addToRegions(uint cell, uvec2 a, RegionSums values) {
  addToCell(cell, values);
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) {
    if (all(greaterThanEqual(a, u_rois[i].xy)) && all(lessThan(a, u_rois[i].zw)))
      g_roi_sums[i] += values;
  }
#endif
}

#if ROIS > 0
// For a caller that takes the 4 adjacent columns x0 .. x0 + 3 of several rows (sobel.comp):
// bit 4 (i % 8) + j of word i / 8 says that rectangle i holds column x0 + j; a row's copy, with
// the rectangles that miss the row cleared, says which hold pixel j of that row. Tests a pixel
// with one bit instead of four comparisons (Midgard spilled on those).
const int kRoiWords = (ROIS + 7) / 8;
uint roiBits(int i, uint x0) {
  uint lo = clamp(u_rois[i].x, x0, x0 + 4u) - x0, hi = clamp(u_rois[i].z, x0, x0 + 4u) - x0;
  return (((1u << hi) - 1u) & ~((1u << lo) - 1u)) << (4u * uint(i % 8));
}
#endif

// Pixel j of the columns `rois` describe, in grid cell `cell`, adds `values` to the sums of the
// regions it lies in.
void addToRegionsOfColumn(uint cell, uint j,
#if ROIS > 0
                          uint rois[kRoiWords],
#endif
                          RegionSums values) {
  addToCell(cell, values);
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i)
    if (((rois[i / 8] >> (4u * uint(i % 8) + j)) & 1u) != 0u) g_roi_sums[i] += values;
#endif
}

void flushRegions() {
  addToRegion(g_cell, g_cell_sums);
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) addToRegion(uint(GRID_COLUMNS * GRID_ROWS + i), g_roi_sums[i]);
#endif
}

// The workgroup's sums into REGION_TOTALS (after a barrier that follows every flushRegions).
void publishRegions(uint lid, uint invocations) {
  for (uint i = lid; i < kRegionSlots; i += invocations) {
    uint lo = s_region_lo[i], hi = s_region_hi[i];
    if (lo == 0u && hi == 0u) continue;
    uint at = uint(REGION_TOTALS_AT) + 2u * i;
    uint before = atomicAdd(REGION_TOTALS[at], lo);
    uint carry = before + lo < before ? 1u : 0u;
    if (hi + carry != 0u) atomicAdd(REGION_TOTALS[at + 1u], hi + carry);
  }
}
#endif
