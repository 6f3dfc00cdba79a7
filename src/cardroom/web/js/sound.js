/** Optional sounds (off by default): short WebAudio beeps, no files to load. */
const KEY = "cardroom.sound";
let ctx = null;

export function enabled() {
  return localStorage.getItem(KEY) === "on";
}

export function setEnabled(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) audio();
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function tone(freq, { at = 0, length = 0.08, type = "triangle", gain = 0.12 } = {}) {
  const a = audio();
  if (!a) return;
  const t = a.currentTime + at;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.001, t + length);
  osc.connect(g).connect(a.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

const SOUNDS = {
  play: () => tone(660, { length: 0.06 }),
  discard: () => tone(220, { length: 0.12, type: "sine", gain: 0.2 }),
  complete: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, { at: i * 0.07, length: 0.12 })),
  turn: () => tone(880, { length: 0.1, type: "sine" }),
  refuse: () => tone(160, { length: 0.18, type: "square", gain: 0.06 }),
  win: () => [523, 659, 784, 659, 1047].forEach((f, i) => tone(f, { at: i * 0.12, length: 0.2 })),
};

export function play(name) {
  if (enabled() && SOUNDS[name]) SOUNDS[name]();
}
