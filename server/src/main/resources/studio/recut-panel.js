// The Re-cut panel (issue 27): choose an earlier result, upload the new cut; /sync/conform says what
// happened to every shot, the timeline colours the new cut by it, and after executing, each changed
// cut can be heard old against new (A/B) before the whole is downloaded.

import { followJob, get, message, post } from './api.js';
import { uploadVideo } from './upload.js';

const $ = (id) => document.getElementById(id);

/** Colours of the span kinds (the legend in index.html says the same). */
export const KIND_COLORS = { kept: '#1f9d6b', trimmed: '#e0a100', moved: '#2b6fd6', new: '#8a5cf5' };
/** Seconds heard on each side of a changed cut. */
const AROUND = 2;

export class RecutPanel {
  constructor() {
    this.executions = [];
    this.conform = null;
    this.plan = null;
    this.oldLinks = null;
    this.newLinks = null;
    this.audio = new Audio();
    this.stopAt = null;
    this.audio.addEventListener('timeupdate', () => {
      if (this.stopAt !== null && this.audio.currentTime >= this.stopAt) {
        this.audio.pause();
        this.stopAt = null;
      }
    });
    $('recut-file').addEventListener('change', (e) => {
      const file = e.target.files[0];
      if (file) this.recut(file).catch((err) => { $('recut-error').textContent = message(err); });
    });
    $('recut-execute').addEventListener('click', () => this.execute().catch((err) => { $('recut-error').textContent = message(err); }));
    new ResizeObserver(() => this.draw()).observe($('recut-timeline'));
  }

  /** The finished executions to choose from, newest first. */
  async load() {
    const select = $('recut-execution');
    const { videos } = await get('/sync/library');
    this.executions = [];
    for (const v of videos) {
      for (const x of v.executions) {
        if (x.status === 'finished') this.executions.push({ video: v, execution: x });
      }
    }
    this.executions.sort((a, b) => (a.execution.created_at < b.execution.created_at ? 1 : -1));
    select.replaceChildren();
    for (const { video, execution } of this.executions) {
      const option = document.createElement('option');
      option.value = execution.id;
      option.textContent = `${video.file_name} · ${video.duration.toFixed(1)} s · ${new Date(execution.created_at).toLocaleString()}`;
      select.append(option);
    }
    $('recut-file').disabled = this.executions.length === 0;
    $('recut-status').textContent = this.executions.length ? '' : 'Score a video first: a re-cut follows a finished result.';
  }

  async recut(file) {
    $('recut-error').textContent = '';
    $('recut-execute').disabled = true;
    $('recut-result').hidden = true;
    this.conform = null;
    this.newLinks = null;
    const executionId = $('recut-execution').value;
    const chosen = this.executions.find((e) => e.execution.id === executionId);
    const old = await post('/sync/status', { job_id: chosen.execution.job_id });
    this.oldLinks = old.links || {};
    $('recut-status').textContent = `Uploading ${file.name}…`;
    const video = await uploadVideo(file, (p) => {
      $('recut-status').textContent = `Uploading ${file.name}: ${p.total ? Math.floor(100 * p.sent / p.total) : 0} %`;
    });
    $('recut-status').textContent = 'Analysing the new cut…';
    const started = await post('/sync/video_analysis', { video_id: video.video_id });
    const analysed = await followJob(started, (s) => {
      $('recut-status').textContent = `Analysing the new cut: ${Math.round(100 * (s.progress || 0))} %`;
    });
    if (analysed.status !== 'finished') throw new Error(analysed.message || 'The analysis of the new cut failed.');
    $('recut-status').textContent = 'Matching the shots…';
    const conformed = await post('/sync/conform', { analysis_id: started.analysis_id, execution_id: executionId });
    this.conform = conformed.conform;
    this.plan = conformed.plan;
    this.planId = conformed.plan_id;
    const c = this.conform;
    $('recut-status').textContent = `${c.kept} kept, ${c.trimmed} trimmed, ${c.moved} moved, ${c.new} new, ${c.removed} removed.`;
    this.list();
    this.draw();
    $('recut-execute').disabled = false;
  }

  /** Every span in words, with A/B buttons at each changed cut once the new cut is scored. */
  list() {
    const ul = $('recut-spans');
    ul.replaceChildren();
    for (const span of this.conform.spans) {
      const li = document.createElement('li');
      li.dataset.testid = `recut-span-${span.kind}`;
      li.setAttribute('data-testid', li.dataset.testid);
      const swatch = document.createElement('span');
      swatch.className = `swatch span-${span.kind}`;
      li.append(swatch);
      const where = span.kind === 'removed' ? `old ${span.old_start.toFixed(2)}–${span.old_end.toFixed(2)} s`
        : span.kind === 'new' ? `new ${span.new_start.toFixed(2)}–${span.new_end.toFixed(2)} s`
          : `old ${span.old_start.toFixed(2)}–${span.old_end.toFixed(2)} s → new ${span.new_start.toFixed(2)}–${span.new_end.toFixed(2)} s`;
      li.append(` ${span.kind}: ${where} `);
      if (span.kind !== 'kept' && span.kind !== 'removed' && span.new_start > 0) {
        li.append(this.abButton('A: old', span.old_start ?? span.new_start, true), ' ', this.abButton('B: new', span.new_start, false));
      }
      ul.append(li);
    }
  }

  abButton(label, at, old) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.className = 'ab-button';
    b.dataset.old = String(old);
    b.disabled = !old ? !this.newLinks : !this.oldLinks;
    b.setAttribute('aria-label', `${old ? 'The earlier result' : 'The new result'} around ${at.toFixed(2)} s`);
    b.addEventListener('click', () => this.play(old ? this.oldLinks.audio_wav : this.newLinks.audio_wav, at));
    return b;
  }

  play(url, at) {
    this.audio.pause();
    if (!url) return;
    this.audio.src = url;
    const from = Math.max(0, at - AROUND);
    this.audio.currentTime = from;
    this.stopAt = at + AROUND;
    this.audio.play().catch(() => {});
  }

  /** The new cut along time: each span in its kind's colour, removed spans marked where they were. */
  draw() {
    const canvas = $('recut-timeline');
    // Drawn at the canvas's own size on screen, in device pixels, so the text is not stretched.
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth || 600;
    if (canvas.width !== Math.round(w * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(150 * ratio);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, 150);
    if (!this.conform || !this.plan) return;
    const duration = this.plan.duration;
    const x = (t) => (t / duration) * w;
    ctx.font = '13px system-ui, sans-serif';
    for (const span of this.conform.spans) {
      if (span.new_start === null || span.new_start === undefined) continue;
      ctx.fillStyle = KIND_COLORS[span.kind] || '#b5bcc9';
      ctx.fillRect(x(span.new_start), 20, x(span.new_end) - x(span.new_start) - 2, 70);
      ctx.fillStyle = '#ffffff';
      ctx.fillText(span.kind, x(span.new_start) + 6, 58);
    }
    ctx.fillStyle = '#1d2330';
    for (const s of this.plan.sections) {
      ctx.fillRect(x(s.start), 96, 2, 18);
      ctx.fillText(s.origin ? 'kept music' : 'new music', x(s.start) + 6, 112);
    }
    for (let t = 0; t <= duration; t += Math.max(1, Math.round(duration / 10))) {
      ctx.fillText(`${t} s`, Math.min(x(t) + 2, w - 30), 140);
    }
    const kinds = this.conform.spans.map((s) => s.kind).join(', ');
    canvas.setAttribute('aria-label', `The new cut, ${duration.toFixed(1)} s: ${kinds}`);
  }

  async execute() {
    $('recut-execute').disabled = true;
    const started = await post('/sync/execute', { plan_id: this.planId });
    const status = await followJob(started, (s) => {
      $('recut-exec-status').textContent = `${s.message || s.status} (${Math.round(100 * (s.progress || 0))} %)`;
    });
    if (status.status !== 'finished') throw new Error(status.message || 'The execution failed.');
    this.newLinks = status.links || {};
    $('recut-exec-status').textContent = 'Finished: listen to each changed cut, old (A) against new (B).';
    $('recut-video').src = status.url;
    const list = $('recut-downloads');
    list.replaceChildren();
    for (const [name, url] of Object.entries(this.newLinks)) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = url;
      a.textContent = name;
      a.download = '';
      li.append(a);
      list.append(li);
    }
    $('recut-result').hidden = false;
    this.list();
  }
}
