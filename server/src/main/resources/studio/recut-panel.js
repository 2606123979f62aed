// The Re-cut panel (issue 27): choose an earlier result, upload the new cut; /sync/conform says what
// happened to every shot and how each join of the music is bridged, the picture shows both cuts and the
// transitions (recut-timeline.js), the changed cuts are listed (recut-cuts.js), and once the new cut is
// scored each changed cut can be heard old against new (A/B) before the whole is downloaded.

import { followJob, get, message, post } from './api.js';
import { uploadVideo } from './upload.js';
import { changedCuts, describeCut, describeTransition } from './recut-cuts.js';
import { drawRecut } from './recut-timeline.js';
import { showDownloads } from './downloads.js';

const $ = (id) => document.getElementById(id);

/** Seconds heard on each side of a changed cut. */
export const AROUND = 2;

export class RecutPanel {
  constructor() {
    this.executions = [];
    this.conform = null;
    this.plan = null;
    this.cuts = [];
    this.oldLinks = null;
    this.newLinks = null;
    this.audio = new Audio();
    this.audio.preload = 'auto';
    /** What A/B plays now: {which: 'old'|'new', from, to}, or null. The test reads it too. */
    this.playing = null;
    this.audio.addEventListener('timeupdate', () => {
      if (this.playing && this.audio.currentTime >= this.playing.to) this.stop();
    });
    this.audio.addEventListener('pause', () => this.markPlaying());
    this.audio.addEventListener('ended', () => this.stop());
    $('recut-file').addEventListener('change', (e) => {
      if (e.target.files[0]) this.start(e.target.files[0]);
      e.target.value = '';
    });
    const zone = $('recut-choose');
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('over');
      if (e.dataTransfer.files[0]) this.start(e.dataTransfer.files[0]);
    });
    $('recut-execute').addEventListener('click', () => this.execute().catch((err) => {
      $('recut-error').textContent = message(err);
      $('recut-execute').disabled = false;
    }));
    new ResizeObserver(() => this.draw()).observe($('recut-timeline'));
    this.draw();
  }

  /** The finished executions to choose from, newest first. */
  async load() {
    const select = $('recut-execution');
    const chosen = select.value;
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
      option.selected = execution.id === chosen;
      select.append(option);
    }
    $('recut-file').disabled = this.executions.length === 0;
    if (!this.conform) {
      $('recut-status').textContent = this.executions.length ? 'Choose (or drop here) the new cut of the result chosen.'
        : 'Score a video first: a re-cut follows a finished result.';
    }
  }

  start(file) {
    this.recut(file).catch((err) => {
      $('recut-error').textContent = message(err);
      $('recut-status').textContent = '';
    });
  }

  async recut(file) {
    const executionId = $('recut-execution').value;
    const chosen = this.executions.find((e) => e.execution.id === executionId);
    if (!chosen) throw new Error('Choose the earlier result first: a re-cut follows a finished result.');
    this.stop();
    $('recut-error').textContent = '';
    $('recut-execute').disabled = true;
    $('recut-result').hidden = true;
    $('recut-exec-status').textContent = '';
    Object.assign(this, { conform: null, plan: null, cuts: [], newLinks: null });
    this.show();
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
    this.cuts = changedCuts(this.conform, this.plan);
    const c = this.conform;
    const bridged = (c.transitions || []).filter((t) => t.beats > 0).length;
    $('recut-status').textContent = `${c.kept} kept, ${c.trimmed} trimmed, ${c.moved} moved, ${c.new} new, ${c.removed} removed; `
      + `${(c.transitions || []).length} join${(c.transitions || []).length === 1 ? '' : 's'} of the music, ${bridged} bridged by a transition.`;
    this.show();
    $('recut-execute').disabled = false;
  }

  show() {
    this.listSpans();
    this.listCuts();
    this.draw();
  }

  /** Every span in words, removed ones included. */
  listSpans() {
    const ul = $('recut-spans');
    ul.replaceChildren();
    for (const span of this.conform ? this.conform.spans : []) {
      const li = document.createElement('li');
      li.setAttribute('data-testid', `recut-span-${span.kind}`);
      const swatch = document.createElement('span');
      swatch.className = `swatch span-${span.kind}`;
      const where = span.kind === 'removed' ? `old ${span.old_start.toFixed(2)}–${span.old_end.toFixed(2)} s`
        : span.kind === 'new' ? `new ${span.new_start.toFixed(2)}–${span.new_end.toFixed(2)} s`
          : `old ${span.old_start.toFixed(2)}–${span.old_end.toFixed(2)} s → new ${span.new_start.toFixed(2)}–${span.new_end.toFixed(2)} s`;
      li.append(swatch, `${span.kind}: ${where}`);
      ul.append(li);
    }
  }

  /** Every changed cut: what meets there, how the music is bridged, and A/B once the new cut is scored. */
  listCuts() {
    const ol = $('recut-cuts');
    ol.replaceChildren();
    $('recut-cuts-hint').hidden = !this.conform;
    for (const cut of this.cuts) {
      const li = document.createElement('li');
      li.setAttribute('data-testid', 'recut-cut');
      li.dataset.at = String(cut.at);
      const head = document.createElement('strong');
      head.textContent = describeCut(cut);
      const how = document.createElement('span');
      how.className = 'hint';
      how.setAttribute('data-testid', 'recut-transition');
      how.textContent = describeTransition(cut.transition, cut.at);
      const buttons = document.createElement('span');
      buttons.className = 'buttons';
      buttons.append(
        this.abButton('old', cut.oldAt, cut.oldAt === null ? 'these pictures were not in the earlier cut' : null),
        this.abButton('new', cut.at, null));
      li.append(head, ' ', how, buttons);
      ol.append(li);
    }
  }

  abButton(which, at, missing) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ab-button';
    b.dataset.which = which;
    const old = which === 'old';
    b.textContent = old ? `A: earlier at ${at === null ? '–' : at.toFixed(2)} s` : `B: new at ${at.toFixed(2)} s`;
    const links = old ? this.oldLinks : this.newLinks;
    b.disabled = at === null || !links || !links.audio_wav;
    b.title = missing || (b.disabled ? 'Score the new cut first' : `${AROUND} s either side`);
    b.setAttribute('aria-label', old
      ? (at === null ? `No earlier result to hear: ${missing}` : `Play the earlier result from ${Math.max(0, at - AROUND).toFixed(2)} to ${(at + AROUND).toFixed(2)} s`)
      : `Play the new result from ${Math.max(0, at - AROUND).toFixed(2)} to ${(at + AROUND).toFixed(2)} s`);
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => {
      if (this.playing && this.playing.button === b) this.stop();
      else this.play(which, links.audio_wav, at, b);
    });
    return b;
  }

  /** Plays a result's soundtrack from AROUND seconds before `at` to AROUND after; a second click stops it. */
  play(which, url, at, button) {
    this.stop();
    const from = Math.max(0, at - AROUND);
    this.playing = { which, at, from, to: at + AROUND, button };
    if (this.audio.getAttribute('src') !== url) this.audio.src = url;
    this.audio.currentTime = from;
    this.markPlaying();
    this.audio.play().then(() => this.markPlaying()).catch((e) => {
      $('recut-error').textContent = `The ${which === 'old' ? 'earlier' : 'new'} result cannot play here: ${message(e)}`;
      this.stop();
    });
  }

  stop() {
    this.playing = null;
    if (!this.audio.paused) this.audio.pause();
    this.markPlaying();
  }

  markPlaying() {
    for (const b of document.querySelectorAll('#recut-cuts .ab-button')) {
      b.setAttribute('aria-pressed', String(!!this.playing && this.playing.button === b && !this.audio.paused));
    }
    const p = this.playing;
    $('recut-ab-status').textContent = p
      ? `Playing the ${p.which === 'old' ? 'earlier' : 'new'} result, ${p.from.toFixed(2)} to ${p.to.toFixed(2)} s.` : '';
  }

  draw() {
    const canvas = $('recut-timeline');
    drawRecut(canvas, this.conform, this.plan, this.cuts);
    if (this.conform && this.plan) {
      const spans = this.conform.spans.map((s) => s.kind).join(', ');
      const joins = (this.conform.transitions || []).map((t) => (t.beats === 0 ? `on the beat at ${t.at.toFixed(2)} s`
        : `${t.beats} beat${t.beats === 1 ? '' : 's'} at ${Number(t.tempo).toFixed(0)} bpm from ${t.from.toFixed(2)} to ${t.to.toFixed(2)} s`));
      canvas.setAttribute('aria-label', `The earlier cut above the new cut of ${this.plan.duration.toFixed(1)} s: ${spans}; `
        + `the music's joins: ${joins.join('; ') || 'none'}`);
    } else {
      canvas.setAttribute('aria-label', 'The new cut: nothing matched yet');
    }
  }

  async execute() {
    $('recut-execute').disabled = true;
    $('recut-error').textContent = '';
    const started = await post('/sync/execute', { plan_id: this.planId });
    const status = await followJob(started, (s) => {
      $('recut-exec-status').textContent = `${s.message || s.status} (${Math.round(100 * (s.progress || 0))} %)`;
    });
    if (status.status !== 'finished') throw new Error(status.message || 'The execution failed.');
    this.newLinks = status.links || {};
    $('recut-exec-status').textContent = 'Finished: listen to each changed cut above, the earlier result (A) against the new (B).';
    $('recut-video').src = status.url;
    showDownloads($('recut-downloads'), this.newLinks, 'recut-download');
    $('recut-result').hidden = false;
    this.listCuts();
    $('recut-execute').disabled = false;
  }
}
