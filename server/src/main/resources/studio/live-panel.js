// The live panel: play, steer and end the caller's stream through /player/..., heard through the
// low-latency player; every control's click-to-ear time is measured and shown.

import { ApiError, get, message, post } from './api.js';
import { LivePlayer } from './live-player.js';
import { SharedHls } from './shared-hls.js';

const $ = (id) => document.getElementById(id);

const LABELS = { set_intensity: 'The intensity change', stop: 'The stop' };

export class LivePanel {
  constructor(metrics) {
    this.metrics = metrics;
    this.experiences = [];
    this.player = new LivePlayer();
    this.hasStream = false;
    this.timer = null;
    this.lastExperience = 0;
    this.shared = new SharedHls($('live-experience'));
    this.wire();
  }

  status(text) { $('live-status').textContent = text; }

  error(e) { $('live-error').textContent = e ? message(e) : ''; }

  async ensureStream() {
    if (this.hasStream) return;
    try {
      await post('/player/create-stream');
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
    }
    this.hasStream = true;
  }

  connect() {
    this.player.connect(() => { this.status('The stream closed.'); });
  }

  showPanel() {
    if (!this.timer) this.timer = setInterval(() => this.poll(), 250);
  }

  poll() {
    if (this.polling || !this.hasStream || $('live-panel').hidden) return;
    this.polling = this.pollOnce().finally(() => { this.polling = null; });
  }

  async pollOnce() {
    try {
      const t = await get('/player/transport');
      $('t-tempo').textContent = t.playing ? t.tempo.toFixed(1) : 'stopped';
      $('t-bar').textContent = String(t.bar);
      $('t-beat').textContent = t.beat.toFixed(2);
      const s = this.player.stats();
      $('t-buffer').textContent = s.bufferedMs === null ? '-' : `${Math.round(s.bufferedMs)} ms`;
      if (performance.now() - this.lastExperience > 2000) {
        this.lastExperience = performance.now();
        const c = await get('/player/current_experience');
        $('t-key').textContent = c.key ? `${c.key} ${c.mode}` : '-';
        $('t-section').textContent = c.section || '-';
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        this.hasStream = false;
        this.player.disconnect();
      }
    }
  }

  /** Play: the audio graph (inside the click), the stream, the listener and start at once. */
  async play(clickedAt) {
    this.error(null);
    await this.player.prepare();
    const wasSilent = this.player.level() === 0;
    const heard = this.player.nextSound();
    await this.ensureStream();
    this.connect();
    const now = await post('/player/start', { experience_id: $('live-experience').value });
    $('live-intensity').value = String(now.intensity);
    $('live-intensity-value').value = Number(now.intensity).toFixed(2);
    $('live-vocals').checked = !!now.vocals;
    this.status(`Playing ${now.name}.`);
    if (wasSilent) {
      const at = await heard;
      const ms = Math.round(at - clickedAt);
      this.metrics.live.push({ control: 'play', ms, method: 'analyser' });
      this.status(`Playing ${now.name}; first sound ${ms} ms after the click.`);
    }
  }

  /**
   * A control, and when its effect reaches the ear: the server answers the frame by which the change
   * is in the audio (applies_by_frame); the worklet says when that frame is played.
   */
  async control(name, clickedAt, call) {
    this.error(null);
    const answer = await call();
    const answeredAt = performance.now();
    if (this.player.connected && answer.applies_by_frame !== undefined) {
      const at = await this.player.whenHeard(answer.applies_by_frame);
      const ms = Math.round(at - clickedAt);
      this.metrics.live.push({ control: name, ms, method: 'frame', frame: answer.applies_by_frame, answeredMs: Math.round(answeredAt - clickedAt) });
      this.status(`${LABELS[name] || name} was heard ${ms} ms after the click.`);
    }
    return answer;
  }

  async stop(clickedAt) {
    const silence = this.player.ctx ? this.player.nextSilence() : null;
    const answer = await this.control('stop', clickedAt, () => post('/player/stop'));
    if (silence) {
      const at = await silence;
      // Silence comes after the fade of one beat; the fade began fade_seconds before it.
      const ms = Math.round(at - answer.fade_seconds * 1000 - clickedAt);
      this.metrics.live.push({ control: 'stop', ms, method: 'analyser-silence', fade_seconds: answer.fade_seconds });
    }
  }

  async end() {
    if (!this.hasStream) return;
    this.hasStream = false;
    await this.polling;
    this.player.disconnect();
    await post('/player/end_stream').catch(() => {});
    this.status('The stream has ended.');
  }

  /** The experiences to choose from (from /player/genres); shows the chosen one's description. */
  describe(experiences) {
    if (experiences) {
      this.experiences = experiences;
      const select = $('live-experience');
      select.length = 0;
      for (const x of experiences) select.add(new Option(`${x.name} (${x.genre}, ${Math.round(x.tempo)} bpm)`, x.id));
    }
    const x = this.experiences.find((e) => e.id === $('live-experience').value);
    $('live-description').textContent = x ? x.description || '' : '';
  }

  wire() {
    $('live-experience').addEventListener('change', () => this.describe());
    $('live-play').addEventListener('click', (e) => this.play(e.timeStamp).catch((err) => this.error(err)));
    $('live-stop').addEventListener('click', (e) => this.stop(e.timeStamp).catch((err) => this.error(err)));
    $('live-end').addEventListener('click', () => this.end().catch((err) => this.error(err)));
    $('live-volume').addEventListener('input', (e) => this.player.setVolume(Number(e.target.value)));
    $('live-intensity').addEventListener('input', (e) => { $('live-intensity-value').value = Number(e.target.value).toFixed(2); });
    $('live-intensity').addEventListener('change', (e) => {
      const value = Number(e.target.value);
      this.control('set_intensity', e.timeStamp, () => post('/player/set_intensity', { intensity: value })).catch((err) => this.error(err));
    });
    $('live-vocals').addEventListener('change', (e) => {
      post('/player/toggle_vocals', { vocals: e.target.checked })
        .then((a) => this.status(`Vocals ${a.vocals ? 'on' : 'off'} from bar ${a.applies_at.bar}.`))
        .catch((err) => this.error(err));
    });
    $('live-load-plan').addEventListener('click', async () => {
      $('live-plan-error').textContent = '';
      try {
        const c = await get('/player/current_experience');
        $('live-plan').value = c.plan ? JSON.stringify(c.plan, null, 2) : '';
        if (!c.plan) $('live-plan-error').textContent = 'Nothing is playing: press Play first.';
      } catch (e) {
        $('live-plan-error').textContent = message(e);
      }
    });
    $('live-send-plan').addEventListener('click', async () => {
      $('live-plan-error').textContent = '';
      let plan;
      try {
        plan = JSON.parse($('live-plan').value);
      } catch (e) {
        $('live-plan-error').textContent = `The plan is not valid JSON: ${e.message}`;
        return;
      }
      try {
        const a = await post('/player/replace_plan', { plan });
        this.status(`The new plan plays from bar ${a.applies_at.bar} (${a.tempo.toFixed(1)} bpm, ${a.key} ${a.mode}).`);
      } catch (e) {
        const problems = e instanceof ApiError ? e.problems() : [];
        $('live-plan-error').textContent = problems.length ? problems.map((p) => `${p.field}: ${p.message}`).join(' ') : message(e);
      }
    });
  }
}
