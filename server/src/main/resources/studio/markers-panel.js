// The Markers card (issue 27): the editor's own markers before generating. Click the timeline to add
// one of the chosen kind, drag it along the timeline (or type its time) to move it, change its kind,
// right-click it (or its Delete button) to delete it; generate sends them as
// `markers` (docs/EDITING.md, "The editor's markers"), and the API's 422 names the one it cannot honour.

import { message, post } from './api.js';

const $ = (id) => document.getElementById(id);
export const KINDS = ['hit', 'swell', 'stop', 'start', 'drop', 'mute_until', 'resume'];

export class MarkersPanel {
  constructor(timeline, analysisId) {
    this.timeline = timeline;
    this.analysisId = analysisId;
    this.markers = [];
    this.fps = 25;
    $('markers-file').addEventListener('change', (e) => {
      if (e.target.files[0]) this.importFile(e.target.files[0]);
      e.target.value = '';
    });
    const zone = $('markers-card');
    zone.addEventListener('dragover', (e) => e.preventDefault());
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      if (e.dataTransfer.files[0]) this.importFile(e.dataTransfer.files[0]);
    });
    timeline.onPick = (t) => this.add(t, $('marker-kind').value);
    timeline.onMarkerMove = (m, t) => { m.time = this.snap(t); };
    timeline.onMarkerDrop = () => this.render();
    timeline.onMarkerDelete = (m) => { this.markers.splice(this.markers.indexOf(m), 1); this.render(); };
    $('markers-clear').addEventListener('click', () => { this.markers = []; this.render(); });
  }

  /** A new video: no markers yet, and times snap to its frames. */
  reset(fps) {
    this.fps = fps > 0 ? fps : 25;
    this.markers = [];
    this.render();
  }

  /** An EDL, FCPXML or Premiere marker list, read by the server for this video; its markers join the list. */
  async importFile(file) {
    $('markers-error').textContent = '';
    try {
      const data = await new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result);
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
      const read = await post('/sync/read_markers', { analysis_id: this.analysisId(), markers_file: data });
      for (const m of read.markers) this.markers.push({ time: m.time, kind: m.kind });
      this.render();
    } catch (e) {
      $('markers-error').textContent = `${file.name}: ${message(e)}`;
    }
  }

  add(time, kind) {
    this.markers.push({ time: this.snap(time), kind });
    this.render();
  }

  snap(t) {
    return Math.round(Math.round(t * this.fps) / this.fps * 1000) / 1000;
  }

  /** The markers as generate takes them, in time order. */
  value() {
    return [...this.markers].sort((a, b) => a.time - b.time);
  }

  render() {
    this.markers.sort((a, b) => a.time - b.time);
    const list = $('markers-list');
    list.replaceChildren();
    this.markers.forEach((m, i) => {
      const li = document.createElement('li');
      li.dataset.testid = 'marker';
      li.setAttribute('data-testid', 'marker');
      const time = document.createElement('input');
      time.type = 'number';
      time.step = String(1 / this.fps);
      time.min = '0';
      time.value = String(m.time);
      time.setAttribute('aria-label', `Marker ${i + 1} time in seconds`);
      time.addEventListener('change', () => { m.time = this.snap(Number(time.value)); this.render(); });
      const kind = document.createElement('select');
      kind.setAttribute('aria-label', `Marker ${i + 1} kind`);
      for (const k of KINDS) {
        const o = document.createElement('option');
        o.value = k;
        o.textContent = k.replace('_', ' ');
        o.selected = k === m.kind;
        kind.append(o);
      }
      kind.addEventListener('change', () => { m.kind = kind.value; this.render(); });
      const del = document.createElement('button');
      del.type = 'button';
      del.textContent = 'Delete';
      del.setAttribute('aria-label', `Delete marker ${i + 1}`);
      del.addEventListener('click', () => { this.markers.splice(i, 1); this.render(); });
      li.append(time, ' s ', kind, ' ', del);
      list.append(li);
    });
    $('markers-count').textContent = this.markers.length
      ? `${this.markers.length} marker${this.markers.length === 1 ? '' : 's'}; generate writes the music to them. `
        + 'Drag one along the timeline to move it, right-click it to delete it.'
      : 'No markers: click the timeline to add one of the kind chosen; drag one to move it, right-click it to delete it.';
    this.timeline.setMarkers(this.value());
  }
}
