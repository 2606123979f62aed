// The section editor: one fieldset per section of the plan, every input named after the plan field
// it edits (sections[2].tempo), so that the API's validation errors land next to their field.

const LABELS = ['intro', 'build', 'peak', 'breakdown', 'outro'];
const KEYS = ['C', 'C#', 'Db', 'D', 'D#', 'Eb', 'E', 'F', 'F#', 'Gb', 'G', 'G#', 'Ab', 'A', 'A#', 'Bb', 'B'];
const MODES = ['major', 'minor', 'dorian', 'mixolydian'];

export class PlanEditor {
  constructor(root, general, onChange) {
    this.root = root;
    this.general = general;   // where problems without an input of their own go
    this.onChange = onChange;
    this.plan = null;
    this.inputs = new Map();  // field path -> input
  }

  /** The plan as edited: a copy of the generated one with every editor field written back. */
  value() {
    const plan = structuredClone(this.plan);
    for (const [path, input] of this.inputs) {
      write(plan, path, input);
    }
    return plan;
  }

  show(plan, genres) {
    this.plan = structuredClone(plan);
    this.inputs.clear();
    this.root.replaceChildren();
    const top = el('div', 'plan-top');
    top.append(this.select('genre', 'Genre', genres.includes(plan.genre) ? genres : [plan.genre, ...genres], plan.genre));
    top.append(el('p', 'facts', `${plan.sections.length} sections over ${plan.duration.toFixed(2)} s, seed ${plan.seed}`));
    this.root.append(top);
    plan.sections.forEach((s, i) => this.root.append(this.section(s, i)));
    this.clearErrors();
  }

  section(s, i) {
    const at = `sections[${i}]`;
    const box = el('fieldset', 'section');
    box.append(el('legend', null, `Section ${i + 1}: ${s.start.toFixed(2)}–${s.end.toFixed(2)} s`));
    const grid = el('div', 'section-grid');
    grid.append(
      this.select(`${at}.label`, 'Label', LABELS, s.label),
      this.number(`${at}.tempo`, 'Tempo (bpm)', s.tempo, 0.001),
      this.number(`${at}.bars`, 'Bars', s.bars, 1),
      this.select(`${at}.key`, 'Key', KEYS, s.key),
      this.select(`${at}.mode`, 'Mode', MODES, s.mode),
      this.number(`${at}.intensity`, 'Intensity (0–1)', s.intensity, 0.05),
    );
    box.append(grid);
    const groups = el('fieldset', 'instruments');
    groups.append(el('legend', null, 'Instruments'));
    for (const [group, part] of Object.entries(s.instruments || {})) {
      if (!part) continue;
      const path = `${at}.instruments.${group}`;
      const row = el('div', 'instrument');
      const id = fieldId(path);
      const check = el('input');
      check.type = 'checkbox';
      check.id = id;
      check.dataset.testid = id;
      check.checked = true;
      check.dataset.kind = 'plays';
      this.inputs.set(path, check);
      const label = el('label', null, `${group} (${part.name || `program ${part.program}`}${part.pattern ? `, ${part.pattern}` : ''})`);
      label.htmlFor = id;
      row.append(check, label, this.errorSlot(path));
      groups.append(row);
    }
    box.append(groups);
    if (s.lyrics !== null && s.lyrics !== undefined) {
      box.append(this.textarea(`${at}.lyrics`, 'Lyrics (a line per sung line)', s.lyrics, 3));
    }
    if (s.voiceover && s.voiceover.length) {
      const text = s.voiceover.map((v) => `${v.start} ${v.text}`).join('\n');
      box.append(this.textarea(`${at}.voiceover`, 'Voiceover lines (start in seconds, then the words)', text, 2));
    }
    return box;
  }

  field(path, label, input) {
    const id = fieldId(path);
    input.id = id;
    input.dataset.field = path;
    input.dataset.testid = id;
    input.setAttribute('aria-describedby', `${id}-error`);
    input.addEventListener('change', () => this.onChange && this.onChange(this.value()));
    this.inputs.set(path, input);
    const wrap = el('div', 'field');
    const l = el('label', null, label);
    l.htmlFor = id;
    wrap.append(l, input, this.errorSlot(path));
    return wrap;
  }

  errorSlot(path) {
    const p = el('p', 'field-error');
    p.id = `${fieldId(path)}-error`;
    p.dataset.testid = p.id;
    p.setAttribute('aria-live', 'polite');
    return p;
  }

  select(path, label, options, value) {
    const s = el('select');
    for (const o of options) {
      const opt = el('option', null, o);
      opt.value = o;
      s.append(opt);
    }
    s.value = value;
    return this.field(path, label, s);
  }

  number(path, label, value, step) {
    const input = el('input');
    input.type = 'number';
    input.step = String(step);
    input.value = String(value);
    input.dataset.kind = 'number';
    return this.field(path, label, input);
  }

  textarea(path, label, value, rows) {
    const t = el('textarea');
    t.rows = rows;
    t.value = value;
    t.dataset.kind = path.endsWith('.voiceover') ? 'voiceover' : 'text';
    return this.field(path, label, t);
  }

  clearErrors() {
    this.root.querySelectorAll('.field-error').forEach((p) => { p.textContent = ''; });
    this.root.querySelectorAll('[aria-invalid]').forEach((i) => i.removeAttribute('aria-invalid'));
    this.general.textContent = '';
  }

  /** Puts each {field, message} next to its input; answers how many found one. */
  showErrors(problems) {
    this.clearErrors();
    const rest = [];
    let first = null;
    for (const p of problems) {
      const path = (p.field || '').replace(/^plan\./, '');
      const slot = this.slotFor(path);
      if (slot) {
        slot.text.textContent = slot.text.textContent ? `${slot.text.textContent} ${p.message}` : p.message;
        if (slot.input) {
          slot.input.setAttribute('aria-invalid', 'true');
          first = first || slot.input;
        }
      } else {
        rest.push(p.field ? `${p.field}: ${p.message}` : p.message);
      }
    }
    this.general.textContent = rest.join(' ');
    if (first) first.focus();
    return problems.length - rest.length;
  }

  slotFor(path) {
    // The field itself, else the nearest enclosing one that has an input (sections[1].instruments.bass.program -> ...bass).
    for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
      const text = this.root.querySelector(`#${CSS.escape(fieldId(p))}-error`);
      if (text) return { text, input: this.inputs.get(p) };
    }
    return null;
  }
}

function fieldId(path) {
  return `plan-${path.replace(/[[\].]+/g, '-').replace(/-$/, '')}`;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Writes an input's value into the plan at a path like sections[2].tempo. */
function write(plan, path, input) {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const last = parts.pop();
  let target = plan;
  for (const p of parts) target = target[p];
  const kind = input.dataset.kind;
  if (kind === 'plays') {
    if (!input.checked) target[last] = null;
  } else if (kind === 'number') {
    target[last] = input.value.trim() === '' ? null : Number(input.value);
  } else if (kind === 'voiceover') {
    target[last] = input.value.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
      const m = line.match(/^(\d+(?:\.\d+)?)\s+(.*)$/);
      return m ? { start: Number(m[1]), text: m[2] } : { start: null, text: line };
    });
  } else {
    target[last] = input.value;
  }
}
