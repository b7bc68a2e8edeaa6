// The live page of esframe's --output http: the histogram of each frame from /api/events (the
// JSONL object of docs/output-formats.md) drawn on a canvas, its figures and the camera's health,
// and the latest frame from /frame.jpg. EventSource reconnects by itself when the link drops.
"use strict";

const colours = { r: [255, 64, 64], g: [64, 220, 64], b: [80, 120, 255], l: [230, 230, 230] };
const canvas = document.getElementById("graph");
const context = canvas.getContext("2d");
const view = { mode: "overlay", log: false, frames: 0, lastSeq: null, frame: null, connections: 0 };
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

function draw(frame) {
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

for (const input of document.querySelectorAll("input[name=mode]"))
  input.addEventListener("change", () => { view.mode = input.value; if (view.frame) draw(view.frame); });
document.getElementById("log").addEventListener("change", (e) => {
  view.log = e.target.checked;
  if (view.frame) draw(view.frame);
});
connect();
setInterval(refreshPicture, 1000);
refreshPicture();
