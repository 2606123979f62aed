// The shared experience as everyone hears it: /player/hls/{experience}/index.m3u8 (low-latency HLS, public, the same
// files for every listener, which a CDN can carry) played through hls.js (npm hls.js, light build: hls-light.js) in
// an <audio> element. Shows first sound and the latency to the ear from the playlist's program date time.

const $ = (id) => document.getElementById(id);

export class SharedHls {
  constructor(experienceSelect) {
    this.select = experienceSelect;
    this.hls = null;
    this.timer = null;
    $('hls-play').addEventListener('click', () => this.play());
    $('hls-stop').addEventListener('click', () => this.stop());
  }

  status(text) { $('hls-status').textContent = text; }

  url() { return `/player/hls/${encodeURIComponent(this.select.value)}/index.m3u8`; }

  play() {
    this.stop();
    const audio = $('hls-audio');
    const Hls = window.Hls;
    const clicked = performance.now();
    audio.addEventListener('playing', () => {
      this.status(`Playing the shared ${this.select.value}: first sound ${Math.round(performance.now() - clicked)} ms after the click.`);
    }, { once: true });
    if (Hls && Hls.isSupported()) {
      // No worker: the page's policy allows scripts from the studio only, and hls.js would build its worker from a blob.
      this.hls = new Hls({ lowLatencyMode: true, enableWorker: false });
      this.hls.loadSource(this.url());
      this.hls.attachMedia(audio);
      this.hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) this.status(`The shared stream failed: ${data.details}`);
      });
    } else {
      audio.src = this.url(); // a browser that plays HLS itself (Safari)
    }
    audio.play().catch(() => this.status('Press play on the player to listen.'));
    this.timer = setInterval(() => this.latency(), 500);
  }

  latency() {
    const date = this.hls && this.hls.playingDate;
    if (date) $('hls-latency').textContent = `${((Date.now() - date.getTime()) / 1000).toFixed(2)} s`;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.hls) {
      this.hls.destroy();
      this.hls = null;
    }
    const audio = $('hls-audio');
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
  }
}
