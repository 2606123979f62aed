// The low-latency player's output stage, on the audio thread: a jitter buffer of 48 kHz stereo
// float frames fed from the main thread, played out one 128-frame quantum at a time.
//
// - Starts (and restarts after an underrun) once `margin` + 50 ms are buffered; anything older is
//   dropped before the first sample plays, so the join burst adds no delay.
// - Keeps the delay small: what matters is the lowest the buffer falls between two arrivals. When
//   over half a second it never fell below the margin + 30 ms, the surplus is dropped in one splice,
//   cross-faded over 5 ms (no click), so a burst after a server hiccup does not stay as added delay.
// - An underrun (the buffer ran dry while playing: a gap a listener hears) is counted, and the
//   margin grows by 20 ms (up to 200 ms): a jittery network or server buys itself a safer buffer.
// - Reports which stream frame it plays at which context time, so the page can tell when a frame
//   reaches the ear.

const CAPACITY = 48000 * 8;

const FADE = 240;
const WINDOW = 24000;
const MAX_MARGIN = 9600;

class PcmPlayer extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const o = options.processorOptions || {};
    this.margin = o.marginFrames || 2880;
    this.lead = o.leadFrames || 2400;
    this.surplus = o.surplusFrames || 1440;
    this.left = new Float32Array(CAPACITY);
    this.right = new Float32Array(CAPACITY);
    this.read = 0;
    this.write = 0;
    this.readFrame = -1;   // stream frame of the sample at `read`
    this.playing = false;
    this.underruns = 0;
    this.spliced = 0;
    this.splices = 0;
    this.splice = null;    // {drop, at}: cross-fading to `drop` frames later
    this.windowMin = Infinity;
    this.windowFrames = 0;
    this.quanta = 0;
    this.contiguous = 0;  // frames played one after another up to readFrame (no splice, drop or gap)
    this.port.onmessage = (e) => this.message(e.data);
  }

  buffered() {
    return this.write - this.read;
  }

  message(m) {
    if (m.type === 'pcm') {
      const n = m.left.length;
      if (this.buffered() + n > CAPACITY) {
        // Far behind (the tab slept): start over from the newest audio.
        this.read = this.write;
        this.readFrame = -1;
        this.splice = null;
      }
      if (this.readFrame < 0) {
        this.readFrame = m.frame - this.buffered();
      }
      for (let i = 0; i < n; i++) {
        const at = (this.write + i) % CAPACITY;
        this.left[at] = m.left[i];
        this.right[at] = m.right[i];
      }
      this.write += n;
    } else if (m.type === 'reset') {
      this.read = this.write;
      this.readFrame = -1;
      this.playing = false;
      this.splice = null;
    }
  }

  skip(n) {
    this.read += n;
    this.readFrame += n;
    this.contiguous = 0;
  }

  advance() {
    this.read++;
    this.readFrame++;
    this.contiguous++;
  }

  process(inputs, outputs) {
    const out = outputs[0];
    const l = out[0];
    const r = out[1] || out[0];
    const frames = l.length;
    if (!this.playing && this.buffered() >= this.margin + this.lead) {
      this.skip(this.buffered() - (this.margin + this.lead));
      this.playing = true;
      this.windowMin = Infinity;
      this.windowFrames = 0;
    }
    const startFrame = this.readFrame;
    const before = this.contiguous;
    let wrote = 0;
    if (this.playing) {
      for (; wrote < frames; wrote++) {
        if (this.buffered() === 0) {
          this.playing = false;
          this.underruns++;
          this.splice = null;
          this.contiguous = 0;
          this.margin = Math.min(MAX_MARGIN, this.margin + 960);
          break;
        }
        const at = this.read % CAPACITY;
        let a = this.left[at];
        let b = this.right[at];
        if (this.splice) {
          const s = this.splice;
          if (this.buffered() > s.drop) {
            const to = (this.read + s.drop) % CAPACITY;
            const g = s.at / FADE;
            a = a * (1 - g) + this.left[to] * g;
            b = b * (1 - g) + this.right[to] * g;
          }
          if (++s.at >= FADE) {
            this.skip(Math.min(s.drop, this.buffered() - 1));
            this.spliced += s.drop;
            this.splice = null;
          }
        }
        l[wrote] = a;
        r[wrote] = b;
        this.advance();
      }
      if (this.playing) {
        this.windowMin = Math.min(this.windowMin, this.buffered());
        this.windowFrames += frames;
        if (this.windowFrames >= WINDOW) {
          if (!this.splice && this.windowMin > this.margin + this.surplus) {
            this.splice = { drop: this.windowMin - this.margin, at: 0 };
            this.splices++;
          }
          this.windowMin = Infinity;
          this.windowFrames = 0;
        }
      }
    }
    for (let i = wrote; i < frames; i++) {
      l[i] = 0;
      r[i] = 0;
    }
    if (++this.quanta % 8 === 0 || wrote < frames) {
      this.port.postMessage({
        type: 'clock', frame: wrote > 0 ? startFrame : -1, contiguous: before, time: currentTime, buffered: this.buffered(),
        playing: this.playing, underruns: this.underruns, spliced: this.spliced, splices: this.splices, margin: this.margin,
      });
    }
    return true;
  }
}

registerProcessor('scorecast-pcm-player', PcmPlayer);
