"""to_dict() against the CLI's JSONL, error codes, zero copy and the GIL."""
import threading
import time
import tracemalloc

import numpy as np
import pytest

import esframe
from conftest import run_cli, without_timing


def same_frames_as_cli(cli, tmp_path, frames, fmt, size, backend, cli_options=(), **config):
    """Writes `frames` as a raw file, runs it through the CLI and through one Pipeline, and
    returns the pairs of records."""
    path = tmp_path / "frames.raw"
    path.write_bytes(b"".join(np.ascontiguousarray(f).tobytes() for f in frames))
    lines = run_cli(cli, "--source", str(path), "--size", f"{size[1]}x{size[0]}", "--format", fmt,
                    "--backend", backend, *cli_options)
    assert len(lines) == len(frames)
    pipeline = esframe.Pipeline(backend=backend, **config)
    pairs = []
    for frame, line in zip(frames, lines):
        result = pipeline.process(frame, format=fmt, seq=line["seq"], ts_ns=line["ts_ns"],
                                  source=line["source"])
        pairs.append((result, line))
    return pairs


@pytest.mark.parametrize("backend", ["cpu", "gles"])
def test_to_dict_equals_the_cli_record(cli, tmp_path, rng, backend):
    frames = [rng.integers(0, 256, size=(3, 257, 4), dtype=np.uint8) for _ in range(2)]
    frames.append(np.zeros_like(frames[0]))  # a dark frame: ev_hint, clip_low
    for result, line in same_frames_as_cli(cli, tmp_path, frames, "RGBA32", (3, 257), backend):
        record = result.to_dict()
        assert without_timing(record) == without_timing(line)
        # The CLI's "read" is the wait for its source, which an array does not have.
        assert set(record["timing_ms"]) == set(line["timing_ms"]) - {"read"}
        # The attributes are the record's fields.
        assert result.stats == record["stats"]
        for c, letter in enumerate(result.channels):
            assert result.hist[c].tolist() == record["hist"][letter]
        assert result.ev_hint == record["ev_hint"]
        assert result.signalstats == {k: record[k] for k in ("YMIN", "YLOW", "YAVG", "YHIGH", "YMAX")}
        assert result.health is None and "health" not in record


def test_to_dict_with_health_and_yuv_equals_the_cli(cli, tmp_path, rng):
    height, width = 6, 10
    frames = []
    for i in range(3):
        whole = rng.integers(0, 256, size=(height * 3 // 2, width), dtype=np.uint8)
        frames.append(whole if i != 2 else frames[1])  # a repeated frame: ydif 0
    pairs = same_frames_as_cli(cli, tmp_path, frames, "NV12", (height, width), "cpu",
                               ("--health", "threshold=5", "--luma", "source"),
                               health={"scene_threshold": 5.0}, luma="source")
    for result, line in pairs:
        assert without_timing(result.to_dict()) == without_timing(line)
        assert result.health == line["health"]
    assert pairs[2][0].health["ydif"] == 0.0 and pairs[1][0].health["ydif"] > 0.0


def test_signalstats_equals_the_cli(cli, tmp_path, rng):
    height, width = 6, 10
    frames = [rng.integers(0, 256, size=(height * 3 // 2, width), dtype=np.uint8) for _ in range(2)]
    pairs = same_frames_as_cli(cli, tmp_path, frames, "NV12", (height, width), "cpu",
                               ("--signalstats", "--luma", "source"), signalstats=True,
                               luma="source")
    names = ("YMIN", "YLOW", "YAVG", "YHIGH", "YMAX", "UMIN", "ULOW", "UAVG", "UHIGH", "UMAX",
             "VMIN", "VLOW", "VAVG", "VHIGH", "VMAX", "UDIF", "VDIF", "BRNG", "SATMIN", "SATLOW",
             "SATAVG", "SATHIGH", "SATMAX", "HUEMED", "HUEAVG")
    for result, line in pairs:
        assert without_timing(result.to_dict()) == without_timing(line)
        assert result.signalstats == {k: line[k] for k in names}
    assert pairs[1][0].signalstats["UDIF"] > 0.0


def test_detect_and_tout_vrep_equal_the_cli(cli, tmp_path, rng):
    """detect= as text and as a dict, signalstats_tout and _vrep: the same records as the CLI's
    --detect and --signalstats-stat (which test_run_detect and test_run_signalstats compare with
    ffmpeg), and the attributes are the record's fields."""
    height, width = 32, 40
    frames = []
    for i in range(4):
        whole = rng.integers(0, 256, size=(height * 3 // 2, width), dtype=np.uint8)
        whole[:4, :] = 16  # a black border above the picture, below cropdetect's limit
        whole[:height, :6] = 16  # and on the left
        frames.append(whole if i != 3 else frames[2])  # a held frame
    text = "crop,skip=1,round=4,blur,radius=10,block,period_max=8"
    cli_options = ("--detect", text, "--signalstats-stat", "tout+vrep")
    for detect in (text, {"crop": {"skip": 1, "round": 4}, "blur": {"radius": 10},
                          "block": {"period_max": 8}}):
        pairs = same_frames_as_cli(cli, tmp_path, frames, "NV12", (height, width), "cpu",
                                   cli_options, detect=detect, signalstats=True,
                                   signalstats_tout=True, signalstats_vrep=True)
        for i, (result, line) in enumerate(pairs):
            assert without_timing(result.to_dict()) == without_timing(line)
            assert result.signalstats["TOUT"] == line["TOUT"]
            assert result.signalstats["VREP"] == line["VREP"]
            assert result.blur == line["blur"] and result.block == line["block"]
            if i == 0:  # skipped
                assert result.cropdetect is None and "cropdetect" not in line
            else:
                assert result.cropdetect == {k: v for k, v in line["cropdetect"].items() if k != "crop"}
                assert result.cropdetect["y1"] == 4 and result.cropdetect["x1"] == 6
    with pytest.raises(Exception, match="radius"):
        esframe.Pipeline(backend="cpu", detect="blur,radius=0")


@pytest.mark.parametrize("backend", ["cpu", "gles"])
def test_health_regions_equal_numpy_and_the_cli(cli, tmp_path, rng, backend):
    """A 3x2 grid and a rectangle clipped by the frame's edge on GREY frames (the luma is the
    frame): the regions' means and changed fractions against numpy, the record against the CLI's."""
    height, width = 13, 17
    frames = [rng.integers(0, 256, size=(height, width), dtype=np.uint8) for _ in range(2)]
    pairs = same_frames_as_cli(
        cli, tmp_path, frames, "GREY", (height, width), backend,
        ("--health", "grid=3x2,roi=10,8,20,20,change=40", "--histogram", "channels=l"),
        channels="l",
        health=("grid=3x2,roi=10,8,20,20,change=40" if backend == "cpu" else
                {"grid_columns": 3, "grid_rows": 2, "rois": [(10, 8, 20, 20)], "change_level": 40}))
    ys, xs = np.indices((height, width))
    cells = (ys * 2 // height) * 3 + xs * 3 // width
    masks = [cells == c for c in range(6)] + [(xs >= 10) & (ys >= 8)]
    for i, (result, line) in enumerate(pairs):
        assert without_timing(result.to_dict()) == without_timing(line)
        regions = result.health["regions"]
        assert len(regions) == 7
        changed = np.abs(frames[i].astype(int) - frames[i - 1].astype(int)) > 40 if i else None
        for mask, region in zip(masks, regions):
            assert region["mean"] == frames[i][mask].sum() / mask.sum()
            assert region["changed"] == (changed[mask].sum() / mask.sum() if i else 0.0)


def error_code(call):
    with pytest.raises(esframe.Error) as caught:
        call()
    assert caught.value.code in esframe.ERROR_CODES
    assert str(caught.value)  # the one-line message
    return caught.value.code


def test_errors_carry_their_codes(pipeline_of, tmp_path):
    assert issubclass(esframe.Error, RuntimeError)
    assert error_code(lambda: esframe.Pipeline(bins=0)) == "invalid-argument"
    assert error_code(lambda: esframe.Pipeline(channels="rgbx")) == "invalid-argument"
    assert error_code(lambda: esframe.Pipeline(backend="quantum")) == "invalid-argument"
    assert error_code(lambda: esframe.Pipeline(bogus=1)) == "invalid-argument"
    assert error_code(lambda: esframe.Pipeline(bins="256")) == "invalid-argument"
    assert error_code(lambda: esframe.Pipeline(health="noise=loud")) == "invalid-argument"
    p = pipeline_of(backend="cpu")
    assert error_code(lambda: p.process(np.zeros((4, 4, 4), np.float32))) == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros((4, 4, 5), np.uint8))) == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros((0, 4, 4), np.uint8))) == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros((4, 5, 2), np.uint8), format="YUYV")) \
        == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros((4, 4), np.uint8), format="NV12")) \
        == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros((4, 4, 4), np.uint8), format="NOPE")) \
        == "invalid-argument"
    assert error_code(lambda: p.process(np.zeros(16, np.uint8), format="MJPEG")) == "unsupported"
    assert error_code(lambda: p.process("not an array")) == "invalid-argument"
    with pytest.raises(esframe.Error, match="None is not a frame"):
        p.process(None)
    assert error_code(lambda: esframe.open(str(tmp_path / "missing.y4m"))) == "not-found"
    assert error_code(lambda: esframe.open("pattern", width=-3)) == "invalid-argument"


def test_a_pipeline_stays_on_its_thread(pipeline_of):
    p = pipeline_of(backend="cpu")
    codes = []
    worker = threading.Thread(
        target=lambda: codes.append(error_code(lambda: p.process(np.zeros((2, 2, 4), np.uint8)))))
    worker.start()
    worker.join()
    assert codes == ["unsupported"]


def test_hist_is_a_view_of_the_result(pipeline_of, rng):
    result = pipeline_of(backend="cpu").process(rng.integers(0, 256, (5, 5, 4), np.uint8))
    a, b = result.hist, result.hist
    assert np.shares_memory(a, b) and not a.flags.owndata and not a.flags.writeable
    del result  # the view keeps the counts alive
    assert int(a.sum()) == 4 * 25


def traced_peak(call):
    """Bytes tracemalloc saw allocated at the peak of `call` (numpy traces its buffers)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_contiguous_input_is_not_copied(pipeline_of):
    p = pipeline_of(backend="cpu")
    frame = np.zeros((1080, 1920, 4), np.uint8)
    crop = frame[8:-8, 16:-16]
    for contiguous in (frame, crop):
        assert traced_peak(lambda: p.process(contiguous)) < frame.nbytes // 16
    flipped = frame[:, ::-1]
    assert traced_peak(lambda: p.process(flipped)) >= flipped.nbytes


def assert_gil_released(call):
    """Runs `call` while another thread spins: a held GIL keeps the spinner waiting for it, a wait
    that takes no CPU, for the whole call; a released one lets it run whenever the kernel
    schedules it. The spinner's own CPU time tells the two apart on a loaded machine too, where
    the wall time it stood does not (a descheduled thread stands as long as a blocked one)."""
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            pass

    spinner = threading.Thread(target=spin)
    spinner.start()
    clock = time.pthread_getcpuclockid(spinner.ident)
    try:
        time.sleep(0.01)
        t0, c0 = time.perf_counter(), time.clock_gettime(clock)
        call()
        c1, t1 = time.clock_gettime(clock), time.perf_counter()
    finally:
        stop.set()
        spinner.join()
    assert t1 - t0 > 0.05, "the call is too short to tell"
    ran = c1 - c0
    assert ran > 0.1 * (t1 - t0), f"the spinner ran {ran:.3f} s of CPU in the call's {t1 - t0:.3f} s"


def slow_size(call):
    """The smallest of growing frame sizes on which call(size) takes 0.1 s here (an instrumented
    build reaches it sooner)."""
    for size in ((270, 480), (540, 960), (1080, 1920), (2160, 3840)):
        start = time.perf_counter()
        call(size)
        if time.perf_counter() - start >= 0.1:
            return size
    return size


def test_the_gil_is_released_while_esframe_works(rng):
    # The plain references with a blur: a slow frame without a large one.
    p = esframe.Pipeline(backend="reference", blur=(9, 2))
    frames = {}

    def process(size):
        frames.setdefault(size, rng.integers(0, 256, (*size, 4), np.uint8))
        p.process(frames[size])

    size = slow_size(process)
    assert_gil_released(lambda: process(size))


def test_the_gil_is_released_while_a_source_delivers(rng):
    def frames(size):
        return esframe.open("pattern", width=size[1], height=size[0], backend="reference",
                            blur=(9, 2))

    size = slow_size(lambda s: next(frames(s)))
    source = frames(size)
    next(source)
    assert_gil_released(lambda: next(source))


def test_blur_resize_and_bins_equal_the_cli(cli, tmp_path, rng):
    frames = [rng.integers(0, 256, (7, 31, 3), np.uint8) for _ in range(2)]
    pairs = same_frames_as_cli(cli, tmp_path, frames, "BGR24", (7, 31), "cpu",
                               ("--blur", "3:2", "--resize", "13x5",
                                "--histogram", "bins=32,channels=lb"),
                               blur=(3, 2), resize=(13, 5), bins=32, channels="lb")
    for result, line in pairs:
        assert (result.width, result.height, result.bins, result.channels) == (13, 5, 32, "lb")
        assert without_timing(result.to_dict()) == without_timing(line)
