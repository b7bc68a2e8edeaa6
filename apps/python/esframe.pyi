"""Type stubs of the esframe extension module (apps/python)."""
from os import PathLike
from typing import Any, Iterator, Literal, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str
ERROR_CODES: Tuple[str, ...]

class Error(RuntimeError):
    """An esframe failure: .code is one of ERROR_CODES, str(error) the one-line message."""
    code: str

class ChannelStats(TypedDict):
    min: int
    max: int
    mean: float
    p1: int
    p10: int
    p50: int
    p90: int
    p99: int
    clip_low: float
    clip_high: float
    msv: float
    pixels: int

class HealthFigures(TypedDict):
    black: float
    black_pixels: int
    black_level: int
    black_picture: bool
    ydif: float
    scene_mafd: float
    scene_score: float
    freeze_mafd: float
    frozen: bool
    si: float
    ti: float
    tenengrad: float
    entropy: float

class HealthEvent(TypedDict):
    event: Literal["black_start", "black_end", "freeze_start", "freeze_end", "scene_change"]
    seq: int
    ts_ns: int
    start_ns: int
    end_ns: int
    score: float

class HealthConfig(TypedDict, total=False):
    pixel_black_th: float
    picture_black_ratio_th: float
    black_min_duration: float
    freeze_noise: float
    freeze_duration: float
    scene_threshold: float
    grid_columns: int
    grid_rows: int
    rois: Sequence[Tuple[int, int, int, int]]
    change_level: int
    flat_tenengrad: float
    detail_loss: float
    covered_ratio: float
    covered_min_duration: float

class RawConfig(TypedDict, total=False):
    black: int
    white: int
    gain_r: int
    gain_b: int

class GpuConfig(TypedDict, total=False):
    platform: Literal["auto", "gbm", "device", "surfaceless"]
    drm_device: str
    egl_device: str
    debug: bool
    selftest: bool

class ScopeConfig(TypedDict, total=False):
    waveform: bool
    parade: bool
    vectorscope: bool
    columns: int  # 0: the width, at most 512

class Scopes(TypedDict):
    columns: int
    waveform: Optional[npt.NDArray[np.uint32]]  # (columns, 256)
    parade: Optional[npt.NDArray[np.uint32]]  # (3, columns, 256): R, G, B
    vectorscope: Optional[npt.NDArray[np.uint32]]  # (256, 256): [cr, cb]
    vectorscope_samples: int

class RunReport(TypedDict):
    frames: int
    end: Literal["end-of-stream", "frame-limit", "stopped", "output-closed"]
    seconds: float
    steady_seconds: float

Backend = Literal["auto", "gles", "cpu", "reference"]
# An array or any object with the buffer protocol; planar formats also take a tuple of planes.
FrameInput = Union[npt.ArrayLike, memoryview, Sequence[npt.ArrayLike]]
Target = Union[str, "PathLike[str]", int]

class Result:
    """One processed frame; the attributes are the JSONL record's fields."""
    @property
    def hist(self) -> npt.NDArray[np.uint32]:
        """(channels, bins) counts: a read-only view, no copy."""
    @property
    def channels(self) -> str: ...
    @property
    def bins(self) -> int: ...
    @property
    def stats(self) -> dict[str, ChannelStats]: ...
    @property
    def signalstats(self) -> Optional[dict[str, float]]: ...
    @property
    def scopes(self) -> Optional[Scopes]:
        """Pipeline(scopes=...)'s counts as read-only numpy views, or None."""
    @property
    def ev_hint(self) -> Optional[float]: ...
    @property
    def timing_ms(self) -> dict[str, float]: ...
    @property
    def health(self) -> Optional[HealthFigures]: ...
    @property
    def events(self) -> list[HealthEvent]: ...
    @property
    def cropdetect(self) -> Optional[dict[str, int]]:
        """x1 x2 y1 y2 w h x y, as ffmpeg's cropdetect prints them."""
    @property
    def blur(self) -> Optional[float]: ...
    @property
    def block(self) -> Optional[float]: ...
    @property
    def seq(self) -> int: ...
    @property
    def ts_ns(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def dropped(self) -> int: ...
    @property
    def corrupted(self) -> int: ...
    @property
    def input_copied(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]:
        """The frame's JSONL record, exactly as `esframe run` prints it."""

class Frames(Iterator[Result]):
    """The iterator esframe.open() returns; a context manager that closes the source."""
    def __iter__(self) -> "Frames": ...
    def __next__(self) -> Result: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Frames": ...
    def __exit__(self, *args: object) -> None: ...
    @property
    def pipeline(self) -> "Pipeline": ...
    @property
    def name(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def format(self) -> str: ...

class Pipeline:
    def __init__(
        self,
        *,
        backend: Backend = "auto",
        bins: int = 256,
        channels: str = "rgbl",
        strategy: Optional[str] = None,
        threads: int = 0,
        blur: Union[None, int, Tuple[int, int]] = None,
        resize: Optional[Tuple[int, int]] = None,
        luma: Literal["rgb", "source"] = "rgb",
        health: Union[None, bool, str, HealthConfig] = None,
        detect: Union[None, str, dict[str, Union[bool, dict[str, float]]]] = None,
        signalstats_tout: bool = False,
        signalstats_vrep: bool = False,
        signalstats: bool = False,
        scopes: Union[None, str, Sequence[str], ScopeConfig] = None,
        raw: RawConfig = ...,
        gpu: GpuConfig = ...,
        image_needed: bool = False,
    ) -> None: ...
    def process(
        self,
        frame: FrameInput,
        format: Optional[str] = None,
        *,
        colorimetry: Literal["bt601", "bt709"] = "bt601",
        full_range: bool = False,
        seq: Optional[int] = None,
        ts_ns: Optional[int] = None,
        source: str = "array",
    ) -> Result: ...
    def open(self, source: str, *, max_frames: Optional[int] = None, **source_options: Any) -> Frames: ...
    def end_stream(self) -> list[HealthEvent]: ...
    @property
    def backend(self) -> Literal["gles", "cpu", "reference"]: ...
    @property
    def device(self) -> str: ...

def open(source: str, *, max_frames: Optional[int] = None, **options: Any) -> Frames: ...
def run(
    source: str,
    *,
    jsonl: Optional[Target] = None,
    csv: Optional[Target] = None,
    binary: Optional[Target] = None,
    png: Union[None, str, "PathLike[str]"] = None,
    prom: Union[None, str, "PathLike[str]"] = None,
    max_frames: int = -1,
    **options: Any,
) -> RunReport: ...
class Setting(TypedDict):
    key: str
    field: str
    type: Literal["int", "float"]
    min: float
    max: float
    decibels: bool
    help: str

def settings() -> dict[str, list[Setting]]: ...
def set_log_level(level: Literal["error", "warning", "info", "debug"]) -> None: ...
