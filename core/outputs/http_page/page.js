// The live page of esframe's --output http: the histogram of each frame from /api/events (the
// JSONL object of docs/output-formats.md) drawn on a canvas, its figures and the camera's health,
// and the latest frame from /frame.jpg. EventSource reconnects by itself when the link drops.
// The scope views (waveform, RGB parade, vectorscope) fetch the latest frame's counts from
// /api/frame?scopes=1 as frames arrive, one request at a time.
"use strict";

const colours = { r: [255, 64, 64], g: [64, 220, 64], b: [80, 120, 255], l: [230, 230, 230] };
const canvas = document.getElementById("graph");
const context = canvas.getContext("2d");
const view = { mode: "overlay", log: false, frames: 0, lastSeq: null, frame: null, connections: 0,
               view: "histogram", scopeFrame: null, scopeSeq: null };
window.esframeView = view;  // read by the browser test

function heights(counts, log) {
  const max = Math.max(1, ...counts);
  return counts.map((c) => (log ? Math.log2(c + 1) / Math.log2(max + 1) : c / max));
}

// One channel's bars over `width` columns from x0: each column is as high as the highest bin
// that falls in it, drawn on whole pixels (no smoothing, so a test can read the heights back).
function drawBars(channel, counts, x0, width, blend) {
  const h = heights(counts, view.log);
  const [r, g, b] = colours[channel] || colours.l;
  context.fillStyle = `rgba(${r},${g},${b},${blend})`;
  const n = counts.length;
  for (let x = 0; x < width; ++x) {
    const first = Math.floor((x * n) / width);
    const end = Math.max(first + 1, Math.floor(((x + 1) * n) / width));
    let top = 0;
    for (let i = first; i < end; ++i) top = Math.max(top, h[i]);
    const bar = Math.round(top * canvas.height);
    if (bar > 0) context.fillRect(x0 + x, canvas.height - bar, 1, bar);
  }
}

// The counts of a scope in the JSONL's compact form: base64 of little-endian uint32 words.
function decodeCounts(array) {
  const bytes = Uint8Array.from(atob(array.data), (ch) => ch.charCodeAt(0));
  const words = new DataView(bytes.buffer);
  const counts = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < counts.length; ++i) counts[i] = words.getUint32(4 * i, true);
  return counts;
}

// The cells [first, end) that pixel i of n covers along an axis of `cells` cells.
function cellSpan(i, n, cells) {
  const first = Math.floor((i * cells) / n);
  return [first, Math.max(first + 1, Math.floor(((i + 1) * cells) / n))];
}

// A scope drawn as docs/output-formats.md, "Scope graphs", draws it in the PNG graph, without
// the decorations: each pixel the sum of the block of cells it covers; brightness against the
// largest pixel, linear clipped at a quarter of it or log, at least 48 where anything is.
function drawScope(scopes, name) {
  const w = canvas.width, h = canvas.height;
  const vector = name === "vectorscope";
  const counts = decodeCounts(scopes[name]);
  const columns = vector ? 256 : scopes.columns;
  const panels = name === "parade" ? 3 : 1;
  const side = Math.min(w, h);
  const sums = new Float64Array(w * h).fill(-1);  // -1: outside the vectorscope's square
  let peak = 0;
  for (let x = 0; x < w; ++x) {
    let panel = 0, px = x, width = w;
    if (vector) {
      px = x - Math.floor((w - side) / 2);
      width = side;
      if (px < 0 || px >= side) continue;
    } else if (panels === 3) {
      while (panel + 1 < 3 && Math.floor(((panel + 1) * w) / 3) <= x) ++panel;
      px = x - Math.floor((panel * w) / 3);
      width = Math.floor(((panel + 1) * w) / 3) - Math.floor((panel * w) / 3);
    }
    const across = cellSpan(px, width, vector ? 256 : columns);
    for (let row = 0; row < (vector ? side : h); ++row) {
      const up = cellSpan(row, vector ? side : h, 256);
      // The vectorscope's index is cr * 256 + cb: the row's span is the outer one there.
      const [outer, inner] = vector ? [up, across] : [across, up];
      let sum = 0;
      for (let o = outer[0]; o < outer[1]; ++o)
        for (let i = inner[0]; i < inner[1]; ++i) sum += counts[(panel * columns + o) * 256 + i];
      sums[(h - 1 - row) * w + x] = sum;
      peak = Math.max(peak, sum);
    }
  }
  const image = context.createImageData(w, h);
  for (let p = 0; p < w * h; ++p) {
    const c = sums[p];
    let b = 0;
    if (c > 0) {
      b = view.log ? Math.floor((255 * Math.log2(c + 1)) / Math.log2(peak + 1))
                   : Math.min(255, Math.floor((c * 1020) / peak));
      b = Math.max(48, b);
    }
    const x = p % w;
    let channel = -1;  // the parade's panel: its channel alone
    if (panels === 3) channel = x >= Math.floor((2 * w) / 3) ? 2 : x >= Math.floor(w / 3) ? 1 : 0;
    for (let k = 0; k < 3; ++k) image.data[4 * p + k] = channel < 0 || channel === k ? b : 0;
    image.data[4 * p + 3] = 255;
  }
  context.putImageData(image, 0, 0);
}

const scopeOfView = { waveform: "waveform", rgbparade: "parade", vectorscope: "vectorscope" };

function drawScopeView() {
  const name = scopeOfView[view.view];
  const note = document.getElementById("scope-note");
  const frame = view.scopeFrame;
  context.fillStyle = "#000";
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (!frame) return;
  if (!frame.scopes || !frame.scopes[name]) {
    note.hidden = false;
    note.textContent = `The frames carry no ${name}: run esframe with --scopes ${name}.`;
    return;
  }
  note.hidden = true;
  drawScope(frame.scopes, name);
  view.scopeSeq = frame.seq;
}

let scopeLoading = false;
function refreshScopes() {
  if (view.view === "histogram" || scopeLoading) return;
  scopeLoading = true;
  fetch("api/frame?scopes=1", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((frame) => {
      scopeLoading = false;
      if (!frame || view.view === "histogram") return;
      view.scopeFrame = frame;
      drawScopeView();
    })
    .catch(() => { scopeLoading = false; });
}

function draw(frame) {
  if (view.view !== "histogram") {
    drawScopeView();
    return;
  }
  document.getElementById("scope-note").hidden = true;
  context.fillStyle = "#000";
  context.fillRect(0, 0, canvas.width, canvas.height);
  const channels = Object.keys(frame.hist);
  if (view.mode === "luma") {
    if (frame.hist.l) drawBars("l", frame.hist.l, 0, canvas.width, 1);
  } else if (view.mode === "parade") {
    const w = Math.floor(canvas.width / channels.length);
    channels.forEach((c, k) => drawBars(c, frame.hist[c], k * w, w, 1));
  } else {
    context.globalCompositeOperation = "lighter";
    channels.forEach((c) => drawBars(c, frame.hist[c], 0, canvas.width, 0.7));
    context.globalCompositeOperation = "source-over";
  }
}

function figures(frame) {
  const lines = [`frame ${frame.seq}  ${frame.width}x${frame.height} ${frame.format}` +
                 `  dropped ${frame.dropped}`];
  for (const [c, s] of Object.entries(frame.stats))
    lines.push(`${c}: mean ${s.mean.toFixed(1)}  p10 ${s.p10} p50 ${s.p50} p90 ${s.p90}` +
               `  clip ${(100 * s.clip_low).toFixed(2)}% / ${(100 * s.clip_high).toFixed(2)}%`);
  if (frame.ev_hint !== null) lines.push(`EV hint ${frame.ev_hint.toFixed(2)}`);
  if (frame.health)
    lines.push(`black ${(100 * frame.health.black).toFixed(1)}%  ydif ` +
               `${frame.health.ydif.toFixed(2)}  focus ${frame.health.tenengrad.toFixed(0)}` +
               `  entropy ${frame.health.entropy.toFixed(2)}`);
  return lines.join("\n");
}

function showHealth(frame) {
  const el = document.getElementById("health");
  if (!frame.health) { el.hidden = true; return; }
  // The graph caption's order: black, frozen, covered (with --health regions), else ok.
  const h = frame.health;
  const state = h.black_picture ? "BLACK" : h.frozen ? "FROZEN" : h.covered ? "COVERED" : "OK";
  el.hidden = false;
  el.textContent = state;
  el.className = state === "OK" ? "state" : "state bad";
}

function show(frame) {
  view.frame = frame;
  view.lastSeq = frame.seq;
  view.frames += 1;
  document.getElementById("source").textContent = frame.source;
  document.getElementById("figures").textContent = figures(frame);
  showHealth(frame);
  draw(frame);
  refreshScopes();
}

let loading = false;
function refreshPicture() {
  if (loading) return;
  loading = true;
  const img = document.getElementById("frame");
  img.onload = img.onerror = () => { loading = false; };
  img.src = "frame.jpg?t=" + Date.now();
}

function connect() {
  const link = document.getElementById("link");
  const events = new EventSource("api/events");
  events.onopen = () => {
    view.connections += 1;
    link.textContent = "live";
    link.className = "state";
  };
  events.onerror = () => {
    if (events.readyState !== EventSource.CLOSED) {  // a dropped link: EventSource retries it
      link.textContent = "reconnecting";
      link.className = "state down";
      return;
    }
    // An answer other than a stream (503 when the server has all the streams it takes):
    // EventSource gives up on those, so the page asks again after the Retry-After the server
    // sends (kBusyRetrySeconds in http_server.cpp).
    link.textContent = "busy, retrying";
    link.className = "state down";
    setTimeout(connect, 3000);
  };
  events.onmessage = (e) => {
    const record = JSON.parse(e.data);
    if (record.hist) show(record);  // health event lines carry "event" and no histogram
  };
}

for (const input of document.querySelectorAll("input[name=view]"))
  input.addEventListener("change", () => {
    view.view = input.value;
    view.scopeFrame = null;
    view.scopeSeq = null;
    if (view.frame) draw(view.frame);
    refreshScopes();
  });
for (const input of document.querySelectorAll("input[name=mode]"))
  input.addEventListener("change", () => { view.mode = input.value; if (view.frame) draw(view.frame); });
document.getElementById("log").addEventListener("change", (e) => {
  view.log = e.target.checked;
  if (view.frame) draw(view.frame);
});
connect();
setInterval(refreshPicture, 1000);
refreshPicture();
