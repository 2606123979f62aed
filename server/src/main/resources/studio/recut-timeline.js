// The Re-cut panel's picture of a conform: the earlier cut on top and the new cut under it on one time
// scale, each span in its kind's colour, a band from each kept, trimmed or moved shot's old place to its
// new one, removed spans grey where they were; under the new cut, its music (kept or new, section by
// section) with every transition the conform made: the bridged beats between the outgoing music's last
// beat and the incoming music's first, or a diamond where the join is on a beat of both.

/** Colours of the span kinds (the legend in index.html says the same). */
export const KIND_COLORS = { kept: '#1f9d6b', trimmed: '#b07d00', moved: '#2b6fd6', new: '#8a5cf5', removed: '#b5bcc9' };
const MUSIC_COLORS = { kept: '#d3efe2', new: '#e9e0fd' };
const TRANSITION = '#d9480f';
const INK = '#1d2330';
const MUTED = '#566074';

export const HEIGHT = 236;
const GUTTER = 64;
const ROWS = { old: [18, 48], bands: [48, 92], new: [92, 122], music: [140, 176], transitions: [178, 212], axis: [214, 232] };

const has = (v) => v !== null && v !== undefined;

/** Draws the conform on the canvas at its size on screen; `cuts` are the changed cuts (recut-cuts.js). */
export function drawRecut(canvas, conform, plan, cuts) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(HEIGHT * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(HEIGHT * ratio);
  }
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, HEIGHT);
  g.fillStyle = '#fbfcfe';
  g.fillRect(0, 0, width, HEIGHT);
  g.font = '12px system-ui, sans-serif';
  if (!conform || !plan) {
    g.fillStyle = MUTED;
    g.fillText('Choose the earlier result and the new cut: its shots appear here, coloured by what happened to them.', 12, HEIGHT / 2);
    return;
  }
  const oldDuration = plan.source && plan.source.duration ? plan.source.duration
    : Math.max(0, ...conform.spans.filter((s) => has(s.old_end)).map((s) => s.old_end));
  const span = Math.max(plan.duration, oldDuration) || 1;
  const x = (t) => GUTTER + (t / span) * (width - GUTTER - 4);

  rowTitle(g, 'earlier', ROWS.old, `${oldDuration.toFixed(1)} s`);
  rowTitle(g, 'new cut', ROWS.new, `${plan.duration.toFixed(1)} s`);
  rowTitle(g, 'music', ROWS.music);
  rowTitle(g, 'joins', ROWS.transitions);

  // Bands first, so the spans sit on top of their ends.
  for (const s of conform.spans) {
    if (!has(s.old_start) || !has(s.new_start)) continue;
    g.fillStyle = KIND_COLORS[s.kind];
    g.globalAlpha = 0.22;
    g.beginPath();
    g.moveTo(x(s.old_start), ROWS.bands[0]);
    g.lineTo(x(s.old_end), ROWS.bands[0]);
    g.lineTo(x(s.new_end), ROWS.bands[1]);
    g.lineTo(x(s.new_start), ROWS.bands[1]);
    g.closePath();
    g.fill();
    g.globalAlpha = 1;
  }
  for (const s of conform.spans) {
    if (has(s.old_start)) block(g, x(s.old_start), x(s.old_end), ROWS.old, s.kind, s.kind === 'removed');
    if (has(s.new_start)) block(g, x(s.new_start), x(s.new_end), ROWS.new, s.kind, false);
  }

  // The music of the new cut: a block per section, kept (its origin's old music) or new.
  for (const section of plan.sections) {
    const kind = section.origin ? 'kept' : 'new';
    const x0 = x(section.start);
    const x1 = x(section.end);
    g.fillStyle = MUSIC_COLORS[kind];
    g.fillRect(x0, ROWS.music[0], x1 - x0 - 1, ROWS.music[1] - ROWS.music[0]);
    label(g, [`${kind} music`, `${Number(section.tempo).toFixed(0)} bpm ${section.key}`], x0, x1, ROWS.music, INK);
  }

  // The changed cuts: a dashed line through the new cut and its music.
  g.strokeStyle = INK;
  g.setLineDash([4, 3]);
  for (const c of cuts) {
    g.beginPath();
    g.moveTo(x(c.at) + 0.5, ROWS.new[0]);
    g.lineTo(x(c.at) + 0.5, ROWS.transitions[1]);
    g.stroke();
  }
  g.setLineDash([]);

  // The transitions: the bridged beats as a bracket from the outgoing beat to the incoming one, its beats
  // ticked; a join on a beat of both as a diamond.
  // A label that would run into the one before it is left out (the mark stays; the list below tells it).
  let free = GUTTER;
  const labelAt = (text, x0, y) => {
    const w = g.measureText(text).width;
    const left = Math.max(GUTTER, Math.min(x0, width - w - 4));
    if (left < free) return;
    g.fillText(text, left, y);
    free = left + w + 6;
  };
  const transitions = [...(conform.transitions || [])].sort((a, b) => a.from - b.from);
  for (const t of transitions) {
    const top = ROWS.transitions[0];
    g.fillStyle = TRANSITION;
    g.strokeStyle = TRANSITION;
    if (t.beats === 0) {
      const cx = x(t.at);
      g.beginPath();
      g.moveTo(cx, top + 2); g.lineTo(cx + 6, top + 8); g.lineTo(cx, top + 14); g.lineTo(cx - 6, top + 8);
      g.closePath();
      g.fill();
      labelAt('on the beat', cx + 8, top + 13);
      continue;
    }
    const x0 = x(t.from);
    const x1 = Math.max(x0 + 3, x(t.to));
    g.globalAlpha = 0.25;
    g.fillRect(x0, ROWS.music[0], x1 - x0, ROWS.music[1] - ROWS.music[0]);
    g.globalAlpha = 1;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(x0, top + 2); g.lineTo(x0, top + 10); g.lineTo(x1, top + 10); g.lineTo(x1, top + 2);
    g.stroke();
    for (let b = 1; b < t.beats; b++) {
      const xb = x0 + (x1 - x0) * b / t.beats;
      g.beginPath(); g.moveTo(xb, top + 5); g.lineTo(xb, top + 10); g.stroke();
    }
    g.lineWidth = 1;
    const text = `${t.beats} beat${t.beats === 1 ? '' : 's'} · ${Number(t.tempo).toFixed(0)} bpm fill`;
    labelAt(text, x0, top + 24);
  }

  // Axis, in seconds, under everything.
  g.fillStyle = MUTED;
  g.font = '11px system-ui, sans-serif';
  const step = niceStep(span, width - GUTTER);
  for (let t = 0; t <= span + 1e-6; t += step) {
    g.fillRect(x(t), ROWS.axis[0], 1, 4);
    const text = `${t.toFixed(step < 1 ? 1 : 0)} s`;
    g.fillText(text, Math.min(x(t) + 2, width - g.measureText(text).width - 2), ROWS.axis[1] - 3);
  }
}

function rowTitle(g, title, [top, bottom], detail) {
  g.fillStyle = MUTED;
  g.font = '12px system-ui, sans-serif';
  g.fillText(title, 4, detail ? top + 12 : (top + bottom) / 2 + 4);
  if (detail) g.fillText(detail, 4, top + 26);
}

/** A span's block with its kind written in it (clipped to it); a removed span hatched. */
function block(g, x0, x1, [top, bottom], kind, hatched) {
  const w = Math.max(2, x1 - x0 - 2);
  g.fillStyle = KIND_COLORS[kind] || '#b5bcc9';
  g.fillRect(x0, top, w, bottom - top);
  if (hatched) {
    g.save();
    g.beginPath(); g.rect(x0, top, w, bottom - top); g.clip();
    g.strokeStyle = '#ffffff';
    for (let hx = x0 - (bottom - top); hx < x0 + w; hx += 7) {
      g.beginPath(); g.moveTo(hx, bottom); g.lineTo(hx + (bottom - top), top); g.stroke();
    }
    g.restore();
  }
  label(g, [kind], x0, x0 + w, [top, bottom], hatched ? INK : '#ffffff');
}

/** Lines of text inside a block, clipped to it so a short block never spills into its neighbour. */
function label(g, lines, x0, x1, [top, bottom], color) {
  g.save();
  g.beginPath(); g.rect(x0, top, x1 - x0, bottom - top); g.clip();
  g.fillStyle = color;
  g.font = '12px system-ui, sans-serif';
  lines.forEach((line, i) => g.fillText(line, x0 + 5, top + 14 + i * 14));
  g.restore();
}

function niceStep(duration, width) {
  const most = Math.max(2, Math.floor(width / 60));
  for (const s of [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]) {
    if (duration / s <= most) return s;
  }
  return 600;
}
