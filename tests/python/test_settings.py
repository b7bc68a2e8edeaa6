"""Each setting declared once (esframe/settings.hpp): for every number of the health and raw
options, the CLI, the library's text parser (health="KEY=VALUE"), the Python keywords and
PipelineConfig::validate accept and refuse the same values, and the .pyi declares the same
fields with the same types."""
import ast
import math
import os
import subprocess

import pytest

import esframe

SETTINGS = esframe.settings()
PYI = os.path.join(os.path.dirname(__file__), "..", "..", "apps", "python", "esframe.pyi")


def probes(s):
    """Values at and beyond each end of the range, inside it, and a fraction for an integer."""
    lo, hi = s["min"], s["max"]
    step = 1 if s["type"] == "int" else max((hi - lo) * 1e-3, 1e-6)
    values = [lo, hi, lo - step, hi + step, lo + (hi - lo) / 2]
    if s["type"] == "int":
        values = [lo, hi, lo - 1, hi + 1, math.floor(lo + (hi - lo) / 2), lo + 0.5]
    return values


def in_range(s, v):
    return s["min"] <= v <= s["max"] and (s["type"] == "float" or float(v).is_integer())


def python_value(s, v):
    return int(v) if s["type"] == "int" and float(v).is_integer() else float(v)


def accepts(**config):
    try:
        esframe.Pipeline(backend="reference", **config)
        return True
    except esframe.Error as e:
        assert any(w in str(e) for w in ("must be", "is not", "not a finite number")), str(e)
        return False


def cli_accepts(cli, option, text):
    r = subprocess.run([cli, "run", "--backend", "reference", "--frames", "1", "--size", "8x8",
                        option, text, "--output", "jsonl"], capture_output=True, text=True)
    assert r.returncode in (0, 2), r.stderr
    if r.returncode == 2:
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.returncode == 0


def test_the_tables_are_whole():
    fields = {s["field"] for s in SETTINGS["health"]}
    assert {"pixel_black_th", "freeze_noise", "change_level", "covered_min_duration"} <= fields
    assert [s["field"] for s in SETTINGS["raw"]] == ["black", "white", "gain_r", "gain_b"]
    for table in SETTINGS.values():
        for s in table:
            assert s["min"] <= s["max"] and s["help"], s


@pytest.mark.parametrize("setting", SETTINGS["health"], ids=lambda s: s["field"])
def test_health_setting_agrees_everywhere(setting, cli):
    for v in probes(setting):
        want = in_range(setting, v)
        health = {setting["field"]: python_value(setting, v)}
        pair = {"grid_columns": "grid_rows", "grid_rows": "grid_columns"}.get(setting["field"])
        if pair:  # the grid has both sides or neither
            health[pair] = health[setting["field"]] if want else 1
        assert accepts(health=health) == want, health
        if not setting["key"]:
            continue
        text = f"{setting['key']}={python_value(setting, v)!r}"
        assert accepts(health=text) == want, text
        assert cli_accepts(cli, "--health", text) == want, text


@pytest.mark.parametrize("setting", SETTINGS["raw"], ids=lambda s: s["field"])
def test_raw_setting_agrees_everywhere(setting, cli):
    for v in probes(setting):
        want = in_range(setting, v)
        raw = {setting["field"]: python_value(setting, v)}
        if setting["field"] == "black" and want:
            raw["white"] = 65535 if v < 65535 else 0  # white must stay above black
        assert accepts(raw=raw) == want, raw
        if setting["key"]:
            text = f"{setting['key']}={python_value(setting, v)!r}"
            if setting["field"] == "black" and want and v == 65535:
                continue  # no white above it: refused for that, not for the range
            assert cli_accepts(cli, "--raw", text) == want, text


def test_decibels_where_the_table_says():
    for s in SETTINGS["health"]:
        if not s["key"]:
            continue
        assert accepts(health=f"{s['key']}=-60dB") == s["decibels"], s["key"]
    # 10^(-60/20) = 0.001: freezedetect's default noise.
    assert accepts(health="noise=-60dB")


def pyi_typed_dict(name):
    tree = ast.parse(open(PYI).read())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {n.target.id: ast.unparse(n.annotation) for n in node.body
                    if isinstance(n, ast.AnnAssign)}
    raise AssertionError(f"{name} not in {PYI}")


def test_the_pyi_declares_the_same_fields():
    for table, name, extra in (("health", "HealthConfig", {"rois"}), ("raw", "RawConfig", set())):
        declared = pyi_typed_dict(name)
        assert set(declared) == {s["field"] for s in SETTINGS[table]} | extra, name
        for s in SETTINGS[table]:
            assert declared[s["field"]] == s["type"], (name, s["field"])
