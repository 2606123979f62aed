// Scorecast Studio: wires the page to the public API (api.js). Each step is one function; the
// state of the video being scored is one object.

import { ApiError, followJob, get, getRaw, message, post, session } from './api.js';
import { uploadVideo } from './upload.js';
import { Timeline } from './timeline.js';
import { PlanEditor } from './plan-editor.js';
import { LivePanel } from './live-panel.js';
import { RecutPanel } from './recut-panel.js';
import { MarkersPanel } from './markers-panel.js';
import { showDownloads } from './downloads.js';

const $ = (id) => document.getElementById(id);

const state = { file: null, video: null, analysisId: null, analysis: null, planId: null, plan: null, execution: null, genres: [] };
const metrics = { live: [] };
window.scorecastStudio = { metrics, state };

const timeline = new Timeline($('timeline'), $('timeline-tip'), $('timeline-readout'));
const recut = new RecutPanel();
window.scorecastStudio.recut = recut;
const markers = new MarkersPanel(timeline, () => state.analysisId);
const editor = new PlanEditor($('plan-editor'), $('plan-error'), (plan) => timeline.setPlan(plan));

function mb(bytes) {
  return (bytes / 1048576).toFixed(1);
}

function clock(seconds) {
  if (seconds === null || !Number.isFinite(seconds)) return '…';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

// ---- sign in ----

async function signIn(key) {
  session.signIn(key);
  try {
    await get('/player/liveliness');
  } catch (e) {
    session.signOut();
    throw e;
  }
}

function showSignedIn(yes) {
  $('sign-in-form').hidden = yes;
  $('signed-in').hidden = !yes;
  $('studio').hidden = !yes;
  $('intro').hidden = yes;
  if (yes) {
    loadGenres();
  }
}

$('sign-in-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('sign-in-error').textContent = '';
  const key = $('api-key').value.trim();
  try {
    await signIn(key);
    $('api-key').value = '';
    showSignedIn(true);
    $('main').focus();
  } catch (err) {
    $('sign-in-error').textContent = err.status === 401 ? 'That API key is not valid. ' + message(err) : message(err);
  }
});

$('sign-out').addEventListener('click', async () => {
  await live.end().catch(() => {});
  session.signOut();
  showSignedIn(false);
  $('api-key').focus();
});

// ---- tabs ----

document.querySelectorAll('.tab').forEach((tab) => tab.addEventListener('click', () => {
  document.querySelectorAll('.tab').forEach((t) => {
    const on = t === tab;
    t.setAttribute('aria-pressed', String(on));
    $(t.dataset.panel).hidden = !on;
  });
  if (tab.dataset.panel === 'library-panel') loadLibrary();
  if (tab.dataset.panel === 'recut-panel') recut.load().catch((e) => { $('recut-error').textContent = message(e); });
  if (tab.dataset.panel === 'live-panel') live.showPanel();
}));

async function loadGenres() {
  try {
    const { genres } = await get('/player/genres');
    state.genres = [...new Set(genres.map((g) => g.genre))].sort();
    const select = $('opt-genre');
    select.length = 1;
    for (const g of state.genres) select.add(new Option(g, g));
    live.describe(genres);
  } catch (e) {
    $('plan-error').textContent = message(e);
  }
}

// ---- upload ----

const drop = $('drop-zone');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer.files.length) upload(e.dataTransfer.files[0]);
});
$('file-input').addEventListener('change', (e) => {
  if (e.target.files.length) upload(e.target.files[0]);
});

async function upload(file) {
  Object.assign(state, { file, video: null, analysis: null, plan: null, planId: null, execution: null });
  $('upload-error').textContent = '';
  $('video-facts').textContent = '';
  $('analysis-status').textContent = 'The analysis starts when the upload is complete.';
  $('loudness').textContent = '';
  $('plan-status').textContent = '';
  timeline.clear();
  $('generate').disabled = true;
  $('execute').disabled = true;
  $('result').hidden = true;
  $('plan-editor').replaceChildren();
  const progress = $('upload-progress');
  progress.value = 0;
  try {
    const video = await uploadVideo(file, (p) => {
      progress.value = p.total ? p.sent / p.total : 0;
      const pct = p.total ? Math.floor(100 * p.sent / p.total) : 0;
      $('upload-text').textContent = `${pct} % · ${mb(p.sent)} of ${mb(p.total)} MB · ${mb(p.rate)} MB/s · ${clock(p.left)} left`
        + (p.resumed ? ' · resumed' : '');
    });
    progress.value = 1;
    $('upload-text').textContent = `Uploaded ${file.name} (${mb(file.size)} MB).`;
    state.video = video;
    $('video-facts').textContent = `${video.video_id}: ${video.duration.toFixed(2)} s, ${video.width}×${video.height}, `
      + `${video.fps.toFixed(2)} fps, ${video.video_codec} in ${video.container}, ${video.has_audio ? 'with' : 'without'} sound`;
  } catch (e) {
    $('upload-text').textContent = '';
    $('upload-error').textContent = e instanceof ApiError && e.status >= 400 && e.status < 500
      ? `${file.name} was refused: ${message(e)}`
      : `${file.name} could not be uploaded: ${message(e)} Choose it again to resume where it stopped.`;
    return;
  }
  try {
    await analyse(state.video.video_id);
  } catch (e) {
    $('analysis-status').textContent = `The analysis failed: ${message(e)}`;
  }
}

// ---- analysis ----

async function analyse(videoId) {
  $('analysis-status').textContent = 'Analysing…';
  const started = await post('/sync/video_analysis', { video_id: videoId });
  state.analysisId = started.analysis_id;
  const status = await followJob(started, (s) => {
    $('analysis-status').textContent = `${s.message || s.status} (${Math.round(100 * (s.progress || 0))} %)`;
  }, 400, (via) => { window.scorecastStudio.progressVia = via; });
  if (status.status !== 'finished') {
    throw new Error(status.message || 'The analysis failed.');
  }
  showAnalysis(status.analysis);
}

function showAnalysis(analysis) {
  state.analysis = analysis;
  markers.reset(analysis.video.fps);
  const cuts = analysis.cuts.length;
  $('analysis-status').textContent = `Analysis finished: ${cuts} transition${cuts === 1 ? '' : 's'}, ${analysis.scenes.length} scenes, `
    + `suggested ${analysis.suggestions.genre} at ${analysis.suggestions.tempo} bpm.`;
  const a = analysis.audio;
  $('loudness').textContent = a.integrated_lufs === null || a.integrated_lufs === undefined
    ? 'The video has no sound (or it is silent).'
    : `Its own sound: ${a.integrated_lufs.toFixed(1)} LUFS integrated, true peak ${a.true_peak_dbtp.toFixed(1)} dBTP, `
      + `speech ${Math.round(100 * a.speech_ratio)} % of the time.`;
  timeline.setAnalysis(analysis);
  timeline.setPlan(null);
  timeline.thumbnailsOf(state.video && state.video.video_id, getRaw);
  $('generate').disabled = false;
}

// ---- plan ----

$('plan-options').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('plan-error').textContent = '';
  const body = { analysis_id: state.analysisId };
  const genre = $('opt-genre').value;
  if (genre) body.genre = genre;
  const seed = $('opt-seed').value.trim();
  if (seed !== '') body.seed = Number(seed);
  if ($('opt-vocals').checked) body.with_vocals = true;
  if ($('opt-voiceover').checked) {
    body.with_voiceover = true;
    body.voiceover_script = $('opt-script').value;
    body.voiceover_voice = $('opt-voice').value;
  }
  const original = $('opt-original').value;
  if (original !== 'none') body[original] = true;
  if ($('opt-no-ducking').checked) body.no_ducking = true;
  if (markers.value().length) body.markers = markers.value();
  $('plan-status').textContent = 'Planning…';
  try {
    const generated = await post('/sync/generate', body);
    showPlan(generated.plan_id, generated.plan);
  } catch (err) {
    $('plan-status').textContent = '';
    $('plan-error').textContent = message(err);
  }
});

function showPlan(planId, plan) {
  state.planId = planId;
  state.plan = plan;
  $('plan-status').textContent = `Plan ${planId}: ${plan.genre}, ${plan.sections.length} sections. Edit any field, then execute.`;
  editor.show(plan, state.genres);
  timeline.setPlan(plan);
  $('execute').disabled = false;
}

// ---- execute ----

$('execute').addEventListener('click', () => execute(state.planId, editor.value()));

async function execute(planId, plan) {
  $('execute-error').textContent = '';
  editor.clearErrors();
  $('result').hidden = true;
  $('execute').disabled = true;
  try {
    const started = await post('/sync/execute', { plan_id: planId, plan });
    const status = await followJob(started, (s) => {
      $('execution-progress').value = s.progress || 0;
      $('execution-status').textContent = `${s.message || s.status} (${Math.round(100 * (s.progress || 0))} %)`;
    }, 500, (via) => { window.scorecastStudio.progressVia = via; });
    if (status.status !== 'finished') {
      throw new Error(status.message || 'The execution failed.');
    }
    state.execution = status;
    await showResult(status, plan);
  } catch (e) {
    const placed = e instanceof ApiError ? editor.showErrors(e.problems()) : 0;
    $('execution-status').textContent = '';
    $('execute-error').textContent = placed
      ? `The plan was refused: ${placed} field${placed === 1 ? '' : 's'} to fix, marked in the editor above.`
      : message(e);
  } finally {
    $('execute').disabled = !state.planId;
  }
}

async function showResult(status, plan) {
  $('result').hidden = false;
  $('execution-status').textContent = status.message || 'Finished.';
  const video = $('result-video');
  video.src = status.url;
  video.muted = false;
  const original = $('original-audio');
  const abOriginal = document.querySelector('input[name=ab][value=original]');
  if (state.file) {
    original.src = URL.createObjectURL(state.file);
    abOriginal.disabled = false;
  } else {
    original.removeAttribute('src');
    abOriginal.disabled = true;
  }
  document.querySelector('input[name=ab][value=new]').checked = true;
  showDownloads($('downloads'), status.links);
  let results = null;
  try {
    results = await (await fetch(status.queryurl)).json();
  } catch (e) {
    results = null;
  }
  const sync = results && results.sync;
  const accents = sync && Array.isArray(sync.points) ? sync.points : [];
  const loud = results && results.loudness;
  $('sync-report').textContent = [
    loud && loud.integrated_lufs !== undefined ? `Master ${Number(loud.integrated_lufs).toFixed(1)} LUFS, true peak ${Number(loud.true_peak_dbtp).toFixed(1)} dBTP.` : '',
    sync ? `${sync.within_frame} of ${sync.accents} sync accents heard within a frame (worst ${Math.round(1000 * sync.worst_error_seconds)} ms);`
      + ' marked under the waveform, green within a frame, red not.' : '',
  ].join(' ');
  drawWaveform(status.links && status.links.audio_wav, plan, accents);
}

// A/B: the video plays its new soundtrack, or muted beside the original file's sound kept in step.
document.querySelectorAll('input[name=ab]').forEach((r) => r.addEventListener('change', () => {
  const video = $('result-video');
  const original = $('original-audio');
  const useOriginal = document.querySelector('input[name=ab]:checked').value === 'original';
  video.muted = useOriginal;
  original.currentTime = video.currentTime;
  if (useOriginal && !video.paused) original.play(); else original.pause();
}));
$('result-video').addEventListener('play', () => {
  if ($('result-video').muted && $('original-audio').src) { $('original-audio').currentTime = $('result-video').currentTime; $('original-audio').play(); }
});
$('result-video').addEventListener('pause', () => $('original-audio').pause());
$('result-video').addEventListener('seeked', () => { $('original-audio').currentTime = $('result-video').currentTime; });

async function drawWaveform(url, plan, accents) {
  const canvas = $('waveform');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = 120;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = '#fbfcfe';
  g.fillRect(0, 0, width, height);
  if (!url) return;
  let buffer;
  try {
    const bytes = await (await fetch(url)).arrayBuffer();
    const ctx = new OfflineAudioContext(1, 1, 48000);
    buffer = await ctx.decodeAudioData(bytes);
  } catch (e) {
    return;
  }
  const data = buffer.getChannelData(0);
  const per = Math.max(1, Math.floor(data.length / width));
  g.fillStyle = '#3a5bd9';
  for (let x = 0; x < width; x++) {
    let lo = 0;
    let hi = 0;
    for (let i = x * per; i < Math.min(data.length, (x + 1) * per); i++) {
      if (data[i] < lo) lo = data[i];
      if (data[i] > hi) hi = data[i];
    }
    g.fillRect(x, height / 2 - hi * height / 2, 1, Math.max(1, (hi - lo) * height / 2));
  }
  const duration = buffer.duration;
  g.strokeStyle = '#1d2330';
  g.lineWidth = 1;
  g.font = '11px system-ui, sans-serif';
  for (const s of plan.sections) {
    const x = s.start / duration * width;
    g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, height); g.stroke();
    g.fillStyle = '#1d2330';
    g.fillText(s.label, x + 3, 12);
  }
  for (const a of accents) {
    const t = a.measured !== null && a.measured !== undefined ? a.measured : a.target;
    const x = t / duration * width;
    g.fillStyle = a.within_frame ? '#1f9d6b' : '#d93f3f';
    g.beginPath(); g.moveTo(x, height - 12); g.lineTo(x - 5, height); g.lineTo(x + 5, height); g.closePath(); g.fill();
  }
  canvas.setAttribute('aria-label', `Waveform of the new soundtrack, ${duration.toFixed(1)} s, with ${plan.sections.length} section boundaries`
    + ` and ${accents.length} sync accents`);
}

// ---- library ----

$('library-refresh').addEventListener('click', () => loadLibrary());

async function loadLibrary() {
  const root = $('library');
  $('library-status').textContent = 'Loading…';
  try {
    const { videos } = await get('/sync/library');
    root.replaceChildren();
    $('library-status').textContent = videos.length ? `${videos.length} video${videos.length === 1 ? '' : 's'}.` : 'No videos yet.';
    for (const v of videos) {
      const card = document.createElement('article');
      card.className = 'card';
      const h = document.createElement('h3');
      h.textContent = `${v.file_name} · ${v.duration.toFixed(1)} s · ${new Date(v.created_at).toLocaleString()}`;
      card.append(h);
      const ul = document.createElement('ul');
      for (const x of v.executions) {
        const li = document.createElement('li');
        li.textContent = `${x.id} · ${x.status} · ${new Date(x.created_at).toLocaleString()} `;
        const open = document.createElement('button');
        open.type = 'button';
        open.textContent = 'Open';
        open.setAttribute('aria-label', `Open execution ${x.id}`);
        open.dataset.testid = 'library-open';
        open.addEventListener('click', () => reopen(v, x));
        li.append(open);
        ul.append(li);
      }
      if (!v.executions.length) {
        const li = document.createElement('li');
        li.textContent = v.analyses.length ? 'Analysed, not scored yet.' : 'Not analysed yet.';
        ul.append(li);
      }
      card.append(ul);
      if (v.analyses.length) {
        const again = document.createElement('button');
        again.type = 'button';
        again.textContent = 'Open the analysis';
        again.setAttribute('aria-label', `Open the analysis of ${v.file_name}`);
        again.dataset.testid = 'library-open-analysis';
        again.addEventListener('click', () => reopenAnalysis(v));
        card.append(again);
      }
      root.append(card);
    }
  } catch (e) {
    $('library-status').textContent = message(e);
  }
}

function showScorePanel() {
  document.querySelector('.tab[data-panel=score-panel]').click();
}

async function reopenAnalysis(v) {
  const latest = v.analyses[v.analyses.length - 1];
  const status = await post('/sync/status', { job_id: latest.job_id });
  Object.assign(state, { file: null, video: { video_id: v.video_id, duration: v.duration }, analysisId: latest.id, plan: null, planId: null });
  showScorePanel();
  $('video-facts').textContent = `${v.video_id}: ${v.file_name}, ${v.duration.toFixed(2)} s`;
  if (status.analysis) showAnalysis(status.analysis);
}

/** An execution again: its video, its outputs, and its plan in the editor to change and re-run. */
async function reopen(v, x) {
  await reopenAnalysis(v);
  const status = await post('/sync/status', { job_id: x.job_id });
  if (!status.links || !status.links.plan) {
    $('execution-status').textContent = status.message || status.status;
    return;
  }
  const plan = await (await fetch(status.links.plan)).json();
  showPlan(plan.id, plan);
  if (status.status === 'finished') await showResult(status, plan);
}

// ---- live ----

const live = new LivePanel(metrics);
window.scorecastStudio.live = live;

// ---- start ----

if (session.key()) {
  signIn(session.key()).then(() => showSignedIn(true)).catch(() => showSignedIn(false));
} else {
  showSignedIn(false);
}
