// The studio's low-latency live player. A plain <audio src=stream_url> keeps about 2.3 s buffered,
// so a control is heard seconds after the click; here fetch() streams the live WAV (16-bit PCM,
// 48 kHz stereo), the main thread converts it to floats and an AudioWorklet plays it from a jitter
// buffer that keeps at least 80 ms between arrivals (pcm-worklet.js). An AnalyserNode on the output is the listener's tap: the
// page measures when sound starts after a click, and when a frame reaches the ear.

import { session } from './api.js';

const RATE = 48000;
const MARGIN_FRAMES = Math.round(0.08 * RATE);   // the least the jitter buffer should hold between arrivals
const LEAD_FRAMES = Math.round(0.05 * RATE);     // more at the start: the server writes every 40 ms
const SOUND_LEVEL = 0.002;   // peak above about -54 dBFS counts as sound

export class LivePlayer {
  constructor() {
    this.ctx = null;
    this.node = null;
    this.gain = null;
    this.analyser = null;
    this.abort = null;
    this.clock = null;       // the worklet's last {frame, time, buffered, underruns, ...} and when it came
    this.connected = false;
    this.listeners = new Set();
    this.soundWaiters = [];
    this.silenceWaiters = [];
    this.framesReceived = 0;
    this.firstFrame = -1;
  }

  /** Creates the audio graph; call from a click (browsers start audio only on a gesture). */
  async prepare() {
    if (!this.ctx) {
      this.ctx = new AudioContext({ sampleRate: RATE, latencyHint: 'interactive' });
      await this.ctx.audioWorklet.addModule('/studio/pcm-worklet.js');
      this.node = new AudioWorkletNode(this.ctx, 'scorecast-pcm-player', {
        numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [2],
        processorOptions: { marginFrames: MARGIN_FRAMES, leadFrames: LEAD_FRAMES },
      });
      this.gain = new GainNode(this.ctx, { gain: 0.8 });
      this.analyser = new AnalyserNode(this.ctx, { fftSize: 256 });
      this.node.connect(this.gain).connect(this.analyser).connect(this.ctx.destination);
      this.node.port.onmessage = (e) => {
        this.clock = { ...e.data, receivedAt: performance.now() };
        this.listeners.forEach((f) => f(this.clock));
      };
      this.samples = new Float32Array(this.analyser.fftSize);
      this.monitor = setInterval(() => this.watchLevel(), 4);
    }
    if (this.ctx.state !== 'running') {
      await this.ctx.resume();
    }
  }

  setVolume(v) {
    if (this.gain) this.gain.gain.setTargetAtTime(v, this.ctx.currentTime, 0.02);
  }

  /** Seconds between the graph's output and the ear, as the browser estimates it. */
  outputDelayMs() {
    return ((this.ctx.outputLatency || 0) + (this.ctx.baseLatency || 0)) * 1000;
  }

  level() {
    this.analyser.getFloatTimeDomainData(this.samples);
    let peak = 0;
    for (const s of this.samples) peak = Math.max(peak, Math.abs(s));
    return peak;
  }

  watchLevel() {
    if (!this.soundWaiters.length && !this.silenceWaiters.length) return;
    const peak = this.level();
    const now = performance.now() + this.outputDelayMs();
    if (peak > SOUND_LEVEL) {
      this.soundWaiters.splice(0).forEach((resolve) => resolve(now));
    } else if (peak === 0) {
      this.silenceWaiters.splice(0).forEach((resolve) => resolve(now));
    }
  }

  /** Resolves with the time (performance.now() scale, at the ear) the output next carries sound. */
  nextSound() {
    return new Promise((resolve) => this.soundWaiters.push(resolve));
  }

  /** Resolves with the time the output is next exactly silent. */
  nextSilence() {
    return new Promise((resolve) => this.silenceWaiters.push(resolve));
  }

  /** Opens the live WAV stream (once) and feeds it to the worklet until stop() or the stream ends. */
  connect(onEnd) {
    if (this.connected) return;
    this.connected = true;
    this.abort = new AbortController();
    this.node.port.postMessage({ type: 'reset' });
    this.read(this.abort.signal).catch((e) => {
      if (e.name !== 'AbortError') console.warn('live stream closed:', e.message);
    }).finally(() => {
      this.connected = false;
      if (onEnd) onEnd();
    });
  }

  disconnect() {
    if (this.abort) this.abort.abort();
    this.connected = false;
    if (this.node) this.node.port.postMessage({ type: 'reset' });
  }

  async read(signal) {
    const response = await fetch('/player/stream?format=wav', {
      headers: { Authorization: `Bearer ${session.key()}` }, signal, cache: 'no-store',
    });
    if (!response.ok) {
      throw new Error(`stream answered ${response.status}`);
    }
    let frame = Number(response.headers.get('X-Scorecast-Frame') || 0);
    this.firstFrame = frame;
    const reader = response.body.getReader();
    let pending = new Uint8Array(0);
    let headerDone = false;
    let channels = 2;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      let bytes = concat(pending, value);
      if (!headerDone) {
        const header = parseWavHeader(bytes);
        if (!header) { pending = bytes; continue; }
        channels = header.channels;
        bytes = bytes.subarray(header.dataOffset);
        headerDone = true;
      }
      const frameBytes = 2 * channels;
      const frames = Math.floor(bytes.length / frameBytes);
      if (frames > 0) {
        const view = new DataView(bytes.buffer, bytes.byteOffset, frames * frameBytes);
        const left = new Float32Array(frames);
        const right = new Float32Array(frames);
        for (let i = 0; i < frames; i++) {
          left[i] = view.getInt16(i * frameBytes, true) / 32768;
          right[i] = channels > 1 ? view.getInt16(i * frameBytes + 2, true) / 32768 : left[i];
        }
        this.node.port.postMessage({ type: 'pcm', left, right, frame }, [left.buffer, right.buffer]);
        frame += frames;
        this.framesReceived += frames;
      }
      pending = bytes.slice(frames * frameBytes);
    }
  }

  /**
   * Resolves with the time (performance.now() scale) the stream frame `frame` reaches the ear,
   * once the worklet has played it; from the worklet's clock and the context's output timestamp.
   */
  whenHeard(frame) {
    return new Promise((resolve) => {
      const check = (c) => {
        if (c.frame < 0 || c.frame < frame) return;
        this.listeners.delete(check);
        // Frames skipped by a splice or dropped at a restart were never heard: the first one played after them was.
        const back = Math.min(c.frame - frame, c.contiguous);
        const contextTime = c.time - back / RATE;
        const ts = this.ctx.getOutputTimestamp();
        let at;
        if (ts.performanceTime > 0) {
          at = ts.performanceTime + (contextTime - ts.contextTime) * 1000;
        } else {
          at = c.receivedAt - back / RATE * 1000 + this.outputDelayMs();
        }
        resolve(at);
      };
      this.listeners.add(check);
    });
  }

  stats() {
    const c = this.clock || {};
    return {
      bufferedMs: c.buffered !== undefined ? c.buffered / RATE * 1000 : null,
      underruns: c.underruns || 0, splices: c.splices || 0, splicedMs: (c.spliced || 0) / RATE * 1000, marginMs: (c.margin || 0) / RATE * 1000,
      playing: !!c.playing,
      framesReceived: this.framesReceived, outputDelayMs: this.ctx ? this.outputDelayMs() : null,
    };
  }
}

function concat(a, b) {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** RIFF/WAVE header up to the data chunk: {channels, dataOffset}, or null while incomplete. */
function parseWavHeader(bytes) {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const tag = (at) => String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new Error('the stream is not a WAV stream');
  }
  let at = 12;
  let channels = 2;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'data') {
      return { channels, dataOffset: at + 8 };
    }
    if (at + 8 + size > bytes.length) return null;
    if (id === 'fmt ') {
      channels = view.getUint16(at + 10, true);
    }
    at += 8 + size + (size % 2);
  }
  return null;
}
