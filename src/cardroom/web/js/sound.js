/** Optional sounds (off by default), synthesized with WebAudio: no files to load. A card's
 * thud, a shuffle when a round is dealt, a completed pile, a win fanfare. */
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

function tone(freq, { at = 0, length = 0.08, type = "triangle", gain = 0.12, to = null, filter = null } = {}) {
  const a = audio();
  if (!a) return;
  const t = a.currentTime + at;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length); // a falling pitch: a thud
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.001, t + length);
  let out = osc.connect(g);
  if (filter) {
    const lowpass = a.createBiquadFilter();
    lowpass.type = "lowpass";
    lowpass.frequency.setValueAtTime(filter, t);
    out = out.connect(lowpass);
  }
  out.connect(a.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

let noiseBuffer = null;

/** A short burst of filtered noise: a card's rustle or slap (one shared second of noise). */
function noise({ at = 0, length = 0.04, freq = 2500, q = 0.8, gain = 0.2, type = "bandpass" } = {}) {
  const a = audio();
  if (!a) return;
  if (!noiseBuffer) {
    noiseBuffer = a.createBuffer(1, a.sampleRate, a.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
  }
  const t = a.currentTime + at;
  const source = a.createBufferSource();
  source.buffer = noiseBuffer;
  const band = a.createBiquadFilter();
  band.type = type;
  band.frequency.setValueAtTime(freq, t);
  band.Q.setValueAtTime(q, t);
  const g = a.createGain();
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.001, t + length);
  source.connect(band).connect(g).connect(a.destination);
  source.start(t, Math.random() * 0.5);
  source.stop(t + length + 0.02);
}

/** A card landing on the felt: a soft low knock and the slap of the card. */
function thud(deep = false) {
  tone(deep ? 120 : 170, { length: 0.1, type: "sine", gain: 0.35, to: deep ? 50 : 70 });
  noise({ length: 0.035, freq: deep ? 900 : 1400, q: 0.6, gain: 0.18, type: "lowpass" });
}

const SOUNDS = {
  play: () => thud(false),
  discard: () => thud(true),
  // A riffle: a run of short rustles, quicker towards the end, then the deck squared.
  shuffle: () => {
    let at = 0;
    for (let i = 0; i < 14; i += 1) {
      noise({ at, length: 0.03, freq: 3000 + (i % 3) * 600, q: 1.2, gain: 0.12 });
      at += 0.045 - i * 0.0015;
    }
    noise({ at: at + 0.08, length: 0.06, freq: 700, q: 0.5, gain: 0.2, type: "lowpass" });
  },
  // A completed pile (1 to 12): the pile squared, then a bright rising arpeggio.
  complete: () => {
    noise({ length: 0.05, freq: 800, gain: 0.18, type: "lowpass" });
    [523, 659, 784, 1047].forEach((f, i) => tone(f, { at: 0.05 + i * 0.07, length: 0.14 }));
  },
  turn: () => tone(880, { length: 0.1, type: "sine" }),
  refuse: () => tone(160, { length: 0.18, type: "square", gain: 0.06 }),
  // A fanfare: two short brass-like calls, then the major chord held.
  win: () => {
    const brass = { type: "sawtooth", gain: 0.06, filter: 1800 };
    [[392, 0], [392, 0.14], [523, 0.28]].forEach(([f, at]) => tone(f, { ...brass, at, length: 0.12 }));
    [523, 659, 784, 1047].forEach((f) => tone(f, { ...brass, at: 0.46, length: 0.9 }));
  },
};

/** Play a sound if sounds are on; `cardroom:sound` on window says which (for tests and tools). */
export function play(name) {
  if (!enabled() || !SOUNDS[name]) return;
  SOUNDS[name]();
  window.dispatchEvent(new CustomEvent("cardroom:sound", { detail: name }));
}
