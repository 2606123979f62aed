// The analysis timeline: thumbnails along time, cuts/fades/dissolves, the energy and motion curves,
// speech spans, and the plan's sections, on one canvas; hover or the arrow keys for the values.

const ROWS = { thumbs: [0, 48], speech: [52, 62], curves: [66, 190], sections: [196, 240], axis: [242, 260] };
const COLORS = {
  cut: '#d93f3f', fade: '#8a5cf5', dissolve: 'rgba(60, 140, 220, 0.28)', energy: '#e08a00', motion: '#1f9d6b',
  speech: '#2b6fd6', section: ['#e9eefc', '#fcefe2', '#e6f6ee', '#f7e8f4', '#eef3d9'], text: '#1d2330', grid: '#d9dde6',
};

export class Timeline {
  constructor(canvas, tip, readout) {
    this.canvas = canvas;
    this.tip = tip;
    this.readout = readout;
    this.analysis = null;
    this.plan = null;
    this.thumbs = [];
    this.cursor = null;
    this.markers = [];
    this.onPick = null;
    /** The Markers card's hooks: a marker dragged to a time (as it moves, then once more when let go), one removed. */
    this.onMarkerMove = null;
    this.onMarkerDrop = null;
    this.onMarkerDelete = null;
    this.drag = null;
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    // A click picks a moment (the Markers card adds a marker there), unless it let go of a dragged marker.
    canvas.addEventListener('click', (e) => {
      if (this.swallowClick) { this.swallowClick = false; return; }
      if (!this.analysis || !this.onPick) return;
      this.onPick(this.timeAt(e));
    });
    // A marker is dragged along the timeline to move it, and right-clicked to delete it.
    canvas.addEventListener('pointerdown', (e) => {
      const marker = e.button === 0 ? this.markerAt(e) : null;
      this.swallowClick = false;
      if (!marker || !this.onMarkerMove) return;
      e.preventDefault();
      canvas.setPointerCapture(e.pointerId);
      this.drag = { marker, from: marker.time };
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!this.drag) return;
      this.onMarkerMove(this.drag.marker, this.timeAt(e));
      this.draw();
    });
    const letGo = () => {
      if (!this.drag) return;
      this.drag = null;
      this.swallowClick = true;
      if (this.onMarkerDrop) this.onMarkerDrop();
    };
    canvas.addEventListener('pointerup', letGo);
    canvas.addEventListener('pointercancel', letGo);
    canvas.addEventListener('contextmenu', (e) => {
      const marker = this.markerAt(e);
      if (!marker || !this.onMarkerDelete) return;
      e.preventDefault();
      this.onMarkerDelete(marker);
    });
    canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; this.cursor = null; this.draw(); });
    canvas.addEventListener('keydown', (e) => this.key(e));
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  get duration() {
    return this.analysis ? this.analysis.video.duration : 0;
  }

  setAnalysis(analysis) {
    this.analysis = analysis;
    this.thumbs = [];
    const cuts = analysis.cuts.length;
    this.canvas.setAttribute('aria-label', `Analysis timeline of ${analysis.video.duration.toFixed(1)} s: ${cuts} transition${cuts === 1 ? '' : 's'} `
      + `(${analysis.cuts.map((c) => `${c.kind} at ${c.time.toFixed(2)} s`).join(', ') || 'none'}), `
      + `${analysis.audio.speech.length} speech span${analysis.audio.speech.length === 1 ? '' : 's'}`);
    this.draw();
  }

  clear() {
    this.analysis = null;
    this.plan = null;
    this.thumbs = [];
    this.cursor = null;
    this.canvas.setAttribute('aria-label', 'Analysis timeline: no analysis yet');
    this.draw();
  }

  setMarkers(markers) {
    this.markers = markers;
    this.draw();
  }

  setPlan(plan) {
    this.plan = plan;
    this.draw();
  }

  /** Thumbnails along time from GET /sync/thumbnails: one JPEG strip and the time each picture shows. */
  async thumbnailsOf(videoId, fetchStrip) {
    if (!videoId || !this.analysis) return;
    const count = Math.max(4, Math.min(32, Math.round((this.canvas.clientWidth || 600) / 64)));
    try {
      const response = await fetchStrip(`/sync/thumbnails?video_id=${encodeURIComponent(videoId)}&count=${count}`);
      const width = Number(response.headers.get('X-Thumbnail-Width'));
      const height = Number(response.headers.get('X-Thumbnail-Height'));
      const times = response.headers.get('X-Thumbnail-Times').split(',').map(Number);
      const strip = await createImageBitmap(await response.blob());
      if (!this.analysis) return;
      const span = this.duration / count;
      this.thumbs = times.map((t, i) => ({ time: (i + 0.5) * span, shown: t, span, strip, sx: i * width, width, height }));
      this.draw();
    } catch (e) {
      // No pictures (a video the server cannot decode again): the timeline goes on without them.
    }
  }

  /** The moment under the pointer. */
  timeAt(e) {
    const rect = this.canvas.getBoundingClientRect();
    return Math.max(0, Math.min(this.duration, (e.clientX - rect.left) / rect.width * this.duration));
  }

  /** The editor's marker within 6 px of the pointer, if any. */
  markerAt(e) {
    if (!this.analysis) return null;
    const rect = this.canvas.getBoundingClientRect();
    const px = e.clientX - rect.left;
    let best = null;
    for (const m of this.markers) {
      const d = Math.abs(this.x(m.time, rect.width) - px);
      if (d <= 6 && (!best || d < best.d)) best = { m, d };
    }
    return best ? best.m : null;
  }

  x(t, width) {
    return this.duration > 0 ? t / this.duration * width : 0;
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 600;
    const height = 260;
    if (canvas.width !== Math.round(width * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const g = canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    g.fillStyle = '#fbfcfe';
    g.fillRect(0, 0, width, height);
    if (!this.analysis) {
      g.fillStyle = '#6b7385';
      g.font = '14px system-ui, sans-serif';
      g.fillText('The timeline appears when the analysis has finished.', 12, 130);
      return;
    }
    const a = this.analysis;
    for (const th of this.thumbs) {
      const x0 = this.x(th.time - th.span / 2, width);
      const w = this.x(th.span, width);
      const h = ROWS.thumbs[1] - ROWS.thumbs[0];
      // Cover the tile: crop the picture to the tile's shape.
      const sw = Math.min(th.width, th.height * w / h);
      const sh = sw * h / w;
      g.drawImage(th.strip, th.sx + (th.width - sw) / 2, (th.height - sh) / 2, sw, sh, x0, ROWS.thumbs[0], w - 1, h);
    }
    // speech
    g.fillStyle = COLORS.speech;
    for (const s of a.audio.speech) {
      g.fillRect(this.x(s.start, width), ROWS.speech[0], Math.max(1, this.x(s.end - s.start, width)), ROWS.speech[1] - ROWS.speech[0]);
    }
    // curves area
    const [top, bottom] = ROWS.curves;
    g.strokeStyle = COLORS.grid;
    g.lineWidth = 1;
    for (const v of [0, 0.5, 1]) {
      const y = bottom - v * (bottom - top);
      g.beginPath(); g.moveTo(0, y + 0.5); g.lineTo(width, y + 0.5); g.stroke();
    }
    for (const c of a.cuts) {
      if (c.kind === 'dissolve') {
        g.fillStyle = COLORS.dissolve;
        g.fillRect(this.x(c.start, width), top, Math.max(2, this.x(c.end - c.start, width)), bottom - top);
      }
    }
    // motion: a step per scene
    g.strokeStyle = COLORS.motion;
    g.lineWidth = 2;
    g.beginPath();
    a.scenes.forEach((s, i) => {
      const y = bottom - Math.min(1, s.motion) * (bottom - top);
      if (i === 0) g.moveTo(this.x(s.start, width), y); else g.lineTo(this.x(s.start, width), y);
      g.lineTo(this.x(s.end, width), y);
    });
    g.stroke();
    // energy
    g.strokeStyle = COLORS.energy;
    g.beginPath();
    a.energy.values.forEach((v, i) => {
      const x = this.x(i * a.energy.hop, width);
      const y = bottom - Math.min(1, v) * (bottom - top);
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    // cuts and fades
    for (const c of a.cuts) {
      const x = this.x(c.time, width);
      if (c.kind === 'cut') {
        g.strokeStyle = COLORS.cut;
        g.lineWidth = 2;
        g.beginPath(); g.moveTo(x, ROWS.thumbs[0]); g.lineTo(x, bottom); g.stroke();
      } else if (c.kind === 'fade_in' || c.kind === 'fade_out') {
        g.fillStyle = COLORS.fade;
        const x0 = this.x(c.start, width);
        const x1 = Math.max(x0 + 6, this.x(c.end, width));
        g.beginPath();
        if (c.kind === 'fade_in') { g.moveTo(x0, bottom); g.lineTo(x1, top); g.lineTo(x1, bottom); }
        else { g.moveTo(x0, top); g.lineTo(x1, bottom); g.lineTo(x0, bottom); }
        g.closePath();
        g.globalAlpha = 0.35; g.fill(); g.globalAlpha = 1;
        g.strokeStyle = COLORS.fade;
        g.beginPath(); g.moveTo(x, top); g.lineTo(x, bottom); g.stroke();
      }
    }
    // plan sections
    if (this.plan) {
      g.font = '12px system-ui, sans-serif';
      this.plan.sections.forEach((s, i) => {
        const x0 = this.x(s.start, width);
        const w = this.x(s.end - s.start, width);
        g.fillStyle = COLORS.section[i % COLORS.section.length];
        g.fillRect(x0, ROWS.sections[0], w, ROWS.sections[1] - ROWS.sections[0]);
        g.strokeStyle = '#7d879c';
        g.strokeRect(x0 + 0.5, ROWS.sections[0] + 0.5, w - 1, ROWS.sections[1] - ROWS.sections[0] - 1);
        g.fillStyle = COLORS.text;
        g.save();
        g.beginPath(); g.rect(x0, ROWS.sections[0], w, ROWS.sections[1] - ROWS.sections[0]); g.clip();
        g.fillText(`${s.label}`, x0 + 4, ROWS.sections[0] + 16);
        g.fillText(`${Number(s.tempo).toFixed(1)} bpm ${s.key} ${s.mode}`, x0 + 4, ROWS.sections[0] + 32);
        g.restore();
      });
    }
    // axis
    g.fillStyle = '#4a5263';
    g.font = '11px system-ui, sans-serif';
    const step = niceStep(this.duration, width);
    for (let t = 0; t <= this.duration + 1e-6; t += step) {
      const x = this.x(t, width);
      g.fillRect(x, ROWS.axis[0], 1, 4);
      g.fillText(`${t.toFixed(step < 1 ? 1 : 0)} s`, Math.min(x + 2, width - 30), ROWS.axis[1] - 3);
    }
    if (this.cursor !== null) {
      const x = this.x(this.cursor, width);
      g.strokeStyle = '#111';
      g.lineWidth = 1;
      g.setLineDash([3, 3]);
      g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, ROWS.sections[1]); g.stroke();
      g.setLineDash([]);
    }
    // The editor's markers (the Markers card), blue, each with a flag naming its kind at the top of the curves.
    g.font = '11px system-ui, sans-serif';
    for (const m of this.markers) {
      const x = this.x(m.time, width);
      g.fillStyle = '#1b4fd8';
      g.fillRect(x - 1, ROWS.thumbs[0], 3, ROWS.sections[1] - ROWS.thumbs[0]);
      const text = m.kind.replace('_', ' ');
      const w = g.measureText(text).width + 8;
      const left = Math.min(x + 1, width - w);
      g.fillRect(left, ROWS.curves[0] + 2, w, 16);
      g.fillStyle = '#ffffff';
      g.fillText(text, left + 4, ROWS.curves[0] + 14);
    }
  }

  /** Every value the analysis (and plan) has at time t, as one sentence. */
  describe(t) {
    const a = this.analysis;
    const energy = a.energy.values[Math.min(a.energy.values.length - 1, Math.max(0, Math.round(t / a.energy.hop)))];
    const scene = a.scenes.find((s) => t >= s.start && t < s.end) || a.scenes[a.scenes.length - 1];
    const near = a.cuts.find((c) => Math.abs(c.time - t) <= Math.max(0.15, (c.end - c.start) / 2 + 0.05));
    const speech = a.audio.speech.some((s) => t >= s.start && t <= s.end);
    const section = this.plan && this.plan.sections.find((s) => t >= s.start && t < s.end);
    const parts = [`${t.toFixed(2)} s`, `energy ${energy !== undefined ? energy.toFixed(2) : '-'}`];
    if (scene) parts.push(`motion ${scene.motion.toFixed(2)}`, `brightness ${scene.brightness.toFixed(2)}`);
    parts.push(speech ? 'speech' : 'no speech');
    if (near) parts.push(`${near.kind.replace('_', ' ')} at ${near.time.toFixed(2)} s (strength ${near.strength.toFixed(2)})`);
    if (section) parts.push(`section ${section.index} ${section.label}, ${Number(section.tempo).toFixed(1)} bpm`);
    return parts.join(' · ');
  }

  hover(e) {
    if (!this.analysis) return;
    const rect = this.canvas.getBoundingClientRect();
    const t = this.timeAt(e);
    this.cursor = t;
    const marker = this.drag ? this.drag.marker : this.markerAt(e);
    this.canvas.style.cursor = marker && this.onMarkerMove ? 'ew-resize' : '';
    this.tip.textContent = marker
      ? `${marker.kind.replace('_', ' ')} marker at ${marker.time.toFixed(2)} s: drag to move it, right-click to delete it`
      : this.describe(t);
    this.tip.hidden = false;
    const left = Math.min(rect.width - this.tip.offsetWidth - 4, Math.max(0, e.clientX - rect.left + 12));
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${Math.max(0, e.clientY - rect.top - 36)}px`;
    this.draw();
  }

  key(e) {
    if (!this.analysis || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const step = this.duration / 50;
    let t = this.cursor === null ? 0 : this.cursor;
    if (e.key === 'ArrowLeft') t -= step;
    if (e.key === 'ArrowRight') t += step;
    if (e.key === 'Home') t = 0;
    if (e.key === 'End') t = this.duration;
    this.cursor = Math.max(0, Math.min(this.duration, t));
    this.readout.textContent = this.describe(this.cursor);
    this.draw();
  }
}

function niceStep(duration, width) {
  const most = Math.max(2, Math.floor(width / 70));
  for (const s of [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]) {
    if (duration / s <= most) return s;
  }
  return 600;
}

