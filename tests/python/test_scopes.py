"""The scopes (Pipeline(scopes=...), `esframe run --scopes`) against a plain numpy computation of
their definitions (docs/output-formats.md, "Scopes"): numpy is the oracle, not esframe's own
reference. Held frames (one picture repeated) written here, through the CLI from raw files and
through the module from arrays, on every backend."""
import base64

import numpy as np
import pytest

from conftest import BACKENDS, luma, run_cli


def column_of(width, columns):
    return (np.arange(width, dtype=np.int64) * columns) // width


def per_column(values, columns):
    """(columns, 256) counts of 8-bit values of an (H, W) plane by column floor(x * W' / W)."""
    h, w = values.shape
    cols = np.broadcast_to(column_of(w, columns), (h, w))
    flat = cols.astype(np.int64) * 256 + values.astype(np.int64)
    return np.bincount(flat.ravel(), minlength=columns * 256).reshape(columns, 256)


def default_columns(width, columns=0):
    return min(columns or 512, width)


def rgb_chroma(r, g, b):
    """BT.709 limited-range Cb, Cr in 16-bit fixed point, as docs/output-formats.md states it."""
    r, g, b = (c.astype(np.int64) for c in (r, g, b))
    cb = (-6596 * r - 22189 * g + 28785 * b + 8421376) >> 16
    cr = (28784 * r - 26145 * g - 2639 * b + 8421376) >> 16
    return cb, cr


def vectorscope(cb, cr):
    flat = cr.astype(np.int64) * 256 + cb.astype(np.int64)
    return np.bincount(flat.ravel(), minlength=65536).reshape(256, 256)


def decode(scope):
    data = np.frombuffer(base64.b64decode(scope["data"]), "<u4")
    assert scope["dtype"] == "<u4"
    return data.reshape(scope["shape"])


def check(scopes, rgb, y, cbcr, columns=0):
    """scopes: {waveform, parade, vectorscope, columns, vectorscope_samples} as numpy arrays;
    rgb: (H, W, 3) processed pixels; y: the luma the waveform counts; cbcr: chroma samples
    (None: from rgb)."""
    h, w = y.shape
    n = default_columns(w, columns)
    assert scopes["columns"] == n
    np.testing.assert_array_equal(scopes["waveform"], per_column(y, n))
    parade = np.stack([per_column(rgb[..., c], n) for c in range(3)])
    np.testing.assert_array_equal(scopes["parade"], parade)
    cb, cr = cbcr if cbcr is not None else rgb_chroma(rgb[..., 0], rgb[..., 1], rgb[..., 2])
    np.testing.assert_array_equal(scopes["vectorscope"], vectorscope(cb, cr))
    assert scopes["vectorscope_samples"] == cb.size == scopes["vectorscope"].sum()
    assert scopes["waveform"].sum() == h * w


def held_frame(rng, h, w):
    """A picture with flat areas and noise: a quarter black, a quarter white, the rest random."""
    rgb = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
    rgb[: h // 2, : w // 2] = 0
    rgb[h // 2 :, w // 2 :] = 255
    return rgb


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size,columns", [((3, 257), 0), ((17, 33), 5), ((1, 1), 0), ((8, 600), 0),
                                          ((4, 20), 4096)])
def test_cli_rgb_held_frames_equal_numpy(cli, tmp_path, rng, backend, size, columns):
    h, w = size
    rgb = held_frame(rng, h, w)
    path = tmp_path / "held.raw"
    path.write_bytes(rgb.tobytes() * 3)
    scopes = "waveform,parade,vectorscope" + (f",columns={columns}" if columns else "")
    lines = run_cli(cli, "--source", str(path), "--size", f"{w}x{h}", "--format", "RGB24",
                    "--backend", backend, "--scopes", scopes)
    assert len(lines) == 3
    for line in lines:
        s = line["scopes"]
        got = {k: decode(s[k]) for k in ("waveform", "parade", "vectorscope")}
        got.update(columns=s["columns"], vectorscope_samples=s["vectorscope_samples"])
        check(got, rgb, luma(rgb[..., 0], rgb[..., 1], rgb[..., 2]), None, columns)


def yuv_frame(rng, fmt, h, w):
    """The raw bytes of a YUV frame, its Y plane and its chroma samples (cb, cr)."""
    y = rng.integers(0, 256, size=(h, w), dtype=np.uint8)
    if fmt == "YUYV":
        cb = rng.integers(0, 256, size=(h, w // 2), dtype=np.uint8)
        cr = rng.integers(0, 256, size=(h, w // 2), dtype=np.uint8)
        packed = np.stack([y[:, 0::2], cb, y[:, 1::2], cr], axis=-1)
        return packed.tobytes(), y, cb, cr
    cb = rng.integers(0, 256, size=((h + 1) // 2, (w + 1) // 2), dtype=np.uint8)
    cr = rng.integers(0, 256, size=((h + 1) // 2, (w + 1) // 2), dtype=np.uint8)
    if fmt == "NV12":
        return y.tobytes() + np.stack([cb, cr], axis=-1).tobytes(), y, cb, cr
    return y.tobytes() + cb.tobytes() + cr.tobytes(), y, cb, cr  # YU12


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fmt", ["NV12", "YUYV", "YU12"])
def test_cli_yuv_held_frames_equal_numpy(cli, tmp_path, rng, backend, fmt):
    h, w = 6, 34
    data, y, cb, cr = yuv_frame(rng, fmt, h, w)
    path = tmp_path / "held.raw"
    path.write_bytes(data * 2)
    lines = run_cli(cli, "--source", str(path), "--size", f"{w}x{h}", "--format", fmt,
                    "--backend", backend, "--luma", "source", "--scopes",
                    "waveform,vectorscope,columns=8")
    assert len(lines) == 2
    for line in lines:
        s = line["scopes"]
        assert "parade" not in s
        np.testing.assert_array_equal(decode(s["waveform"]), per_column(y, 8))
        np.testing.assert_array_equal(decode(s["vectorscope"]), vectorscope(cb, cr))
        assert s["vectorscope_samples"] == cb.size


def test_module_returns_numpy_arrays(backend, pipeline_of, rng):
    h, w = 9, 70
    rgb = held_frame(rng, h, w)
    p = pipeline_of(backend=backend, scopes="waveform,parade,vectorscope,columns=16")
    for _ in range(2):  # a held frame: the same counts each time
        result = p.process(rgb)
        s = result.scopes
        assert s["waveform"].shape == (16, 256) and s["waveform"].dtype == np.uint32
        assert s["parade"].shape == (3, 16, 256)
        assert s["vectorscope"].shape == (256, 256)
        assert not s["waveform"].flags.writeable
        check(s, rgb, luma(rgb[..., 0], rgb[..., 1], rgb[..., 2]), None, 16)
    only = pipeline_of(backend=backend, scopes={"vectorscope": True}).process(rgb).scopes
    assert only["waveform"] is None and only["parade"] is None
    assert pipeline_of(backend=backend).process(rgb).scopes is None


def test_module_refuses_unknown_scopes():
    import esframe
    with pytest.raises(esframe.Error, match="unknown scope 'histogram'"):
        esframe.Pipeline(scopes="waveform,histogram")
    with pytest.raises(esframe.Error, match="scopes columns"):
        esframe.Pipeline(scopes={"waveform": True, "columns": 5000})
