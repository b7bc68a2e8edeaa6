"""Histogram counts of every array layout against numpy.bincount, on every backend."""
import numpy as np
import pytest

from conftest import counts, expected_hist

SIZES = [(1, 1), (3, 257), (17, 31)]  # (height, width): 1x1, 257x3, 31x17

# Where R, G, B sit in a pixel's bytes (V4L2's definitions of these formats).
RGB_FORMATS = {
    "RGBA32": (4, 0, 1, 2),
    "RGB24": (3, 0, 1, 2),
    "BGR24": (3, 2, 1, 0),
    "XRGB32": (4, 1, 2, 3),
    "ARGB32": (4, 1, 2, 3),
    "XBGR32": (4, 2, 1, 0),
    "ABGR32": (4, 2, 1, 0),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("fmt", sorted(RGB_FORMATS))
def test_rgb_formats_count_like_bincount(backend, pipeline_of, rng, fmt, size):
    depth, r, g, b = RGB_FORMATS[fmt]
    frame = rng.integers(0, 256, size=(*size, depth), dtype=np.uint8)
    result = pipeline_of(backend=backend).process(frame, format=fmt)
    assert result.hist.dtype == np.uint32 and result.hist.shape == (4, 256)
    assert (result.width, result.height, result.format) == (size[1], size[0], fmt)
    np.testing.assert_array_equal(result.hist,
                                  expected_hist(frame[..., r], frame[..., g], frame[..., b]))
    assert not result.input_copied


@pytest.mark.parametrize("size", SIZES)
def test_shape_picks_the_format(backend, pipeline_of, rng, size):
    rgba = rng.integers(0, 256, size=(*size, 4), dtype=np.uint8)
    rgb = np.ascontiguousarray(rgba[..., :3])
    grey = np.ascontiguousarray(rgba[..., 0])
    p = pipeline_of(backend=backend)
    assert p.backend == backend, p.device
    assert p.process(rgba).format == "RGBA32"
    assert p.process(rgb).format == "RGB24"
    np.testing.assert_array_equal(p.process(rgb).hist, p.process(rgba).hist)
    result = p.process(grey)
    assert result.format == "GREY"
    # Grey is R = G = B = Y, and the BT.709 luma of that is Y again.
    np.testing.assert_array_equal(result.hist, np.stack([counts(grey)] * 4))


def test_bins_and_channel_order(backend, pipeline_of, rng):
    frame = rng.integers(0, 256, size=(5, 7, 4), dtype=np.uint8)
    result = pipeline_of(backend=backend, bins=64, channels="lgb").process(frame)
    assert result.channels == "lgb" and result.bins == 64
    np.testing.assert_array_equal(
        result.hist, expected_hist(frame[..., 0], frame[..., 1], frame[..., 2], "lgb", 64))


def yuv_planes(rng, height, width, chroma_h, chroma_v):
    y = rng.integers(0, 256, size=(height, width), dtype=np.uint8)
    ch, cw = -(-height // chroma_v), -(-width // chroma_h)
    u = rng.integers(0, 256, size=(ch, cw), dtype=np.uint8)
    v = rng.integers(0, 256, size=(ch, cw), dtype=np.uint8)
    return y, u, v


PLANAR = {"YU12": (2, 2), "YUV422P": (2, 1), "YUV444P": (1, 1)}


@pytest.mark.parametrize("size", SIZES + [(4, 6)])
@pytest.mark.parametrize("fmt", ["NV12", "NV21", *PLANAR])
def test_planar_luma_is_the_y_plane(backend, pipeline_of, rng, fmt, size):
    chroma = PLANAR.get(fmt, (2, 2))
    y, u, v = yuv_planes(rng, *size, *chroma)
    planes = (y, np.stack([u, v], axis=-1)) if fmt.startswith("NV") else (y, u, v)
    p = pipeline_of(backend=backend, luma="source")
    result = p.process(planes, format=fmt)
    np.testing.assert_array_equal(result.hist[3], counts(y))
    assert result.stats["l"]["pixels"] == y.size
    height, width = size
    if height % chroma[1] == 0 and width % chroma[0] == 0:
        # The same frame as one array of the planes' rows (V4L2's contiguous buffer).
        if fmt.startswith("NV"):
            whole = np.concatenate([y, planes[1].reshape(u.shape[0], -1)])
        else:
            whole = np.concatenate([y.ravel(), u.ravel(), v.ravel()]).reshape(-1, width)
        np.testing.assert_array_equal(p.process(whole, format=fmt).hist, result.hist)
        # Padded rows: NV12/NV21 read in place; the planar formats pack two chroma rows to an
        # array row there, so they are copied.
        padded = np.zeros((whole.shape[0], width + 8), np.uint8)
        padded[:, :width] = whole
        crop = p.process(padded[:, :width], format=fmt)
        np.testing.assert_array_equal(crop.hist, result.hist)
        assert crop.input_copied == (fmt in PLANAR)


@pytest.mark.parametrize("fmt", ["YUYV", "UYVY"])
def test_packed_yuv_luma(backend, pipeline_of, rng, fmt):
    frame = rng.integers(0, 256, size=(3, 258, 2), dtype=np.uint8)
    y = frame[..., 0] if fmt == "YUYV" else frame[..., 1]
    result = pipeline_of(backend=backend, luma="source").process(frame, format=fmt)
    np.testing.assert_array_equal(result.hist[3], counts(y))


def test_strided_rows_are_read_in_place(backend, pipeline_of, rng):
    big = rng.integers(0, 256, size=(40, 50, 4), dtype=np.uint8)
    crop = big[3:36, 5:46]  # rows 200 bytes apart, pixels packed
    result = pipeline_of(backend=backend).process(crop)
    assert not result.input_copied
    np.testing.assert_array_equal(result.hist,
                                  expected_hist(crop[..., 0], crop[..., 1], crop[..., 2]))


@pytest.mark.parametrize("view", ["every_other_column", "reversed_channels", "fortran",
                                  "transposed", "flipped_rows"])
def test_non_contiguous_arrays_are_copied_once(backend, pipeline_of, rng, view):
    big = rng.integers(0, 256, size=(9, 14, 4), dtype=np.uint8)
    frame = {
        "every_other_column": big[:, ::2],
        "reversed_channels": big[..., ::-1],
        "fortran": np.asfortranarray(big),
        "transposed": big.transpose(1, 0, 2),
        "flipped_rows": big[::-1],
    }[view]
    result = pipeline_of(backend=backend).process(frame)
    assert result.input_copied
    np.testing.assert_array_equal(result.hist,
                                  expected_hist(frame[..., 0], frame[..., 1], frame[..., 2]))


def test_bayer_16_bit_and_buffer_protocol(pipeline_of, rng):
    # Any buffer protocol object: a bytearray viewed as rows through memoryview.cast.
    data = bytearray(rng.integers(0, 256, size=3 * 257 * 4, dtype=np.uint8).tobytes())
    rows = memoryview(data).cast("B", (3, 257, 4))
    result = pipeline_of(backend="cpu").process(rows)
    frame = np.frombuffer(data, np.uint8).reshape(3, 257, 4)
    np.testing.assert_array_equal(result.hist,
                                  expected_hist(frame[..., 0], frame[..., 1], frame[..., 2]))
    raw = rng.integers(0, 1024, size=(6, 8), dtype=np.uint16)
    record = pipeline_of(backend="cpu").process(raw, format="SRGGB10").to_dict()
    assert record["raw_bits"] == 10 and sum(record["raw_r"]) == 12
