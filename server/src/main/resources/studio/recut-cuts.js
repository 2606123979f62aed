// The changed cuts of a re-cut, from the `conform` object /sync/conform answers (docs/EDITING.md,
// "Follow a re-cut"): every cut of the new video where the pictures on either side were not next to
// each other in the earlier cut, with the transition that bridges its music, and every other join of
// music of two origins (the closing section). Pure functions: the panel shows and plays them.

/** Two spans meet without a change when the earlier cut ran on from one to the other (within a frame at 25 fps). */
const SAME_CUT = 0.04;
/** A transition's `at` is the cut, or the kept music's beat just before it (at most a beat at 40 bpm). */
const BEAT_BEFORE = 1.5;

const has = (v) => v !== null && v !== undefined;

/** The spans the new cut shows, in its order. */
export function placedSpans(conform) {
  return conform.spans.filter((s) => has(s.new_start)).sort((a, b) => a.new_start - b.new_start);
}

/**
 * Every changed cut, in time order: {at, before, after, transition, oldAt}. `before` and `after` are
 * the spans either side (null for a join inside one span); `oldAt` is the moment of the earlier result
 * that showed the same pictures (the incoming shot's old start, else the outgoing one's old end), or
 * null where neither shot was in the earlier cut.
 */
export function changedCuts(conform, plan) {
  const placed = placedSpans(conform);
  const cuts = [];
  for (let i = 1; i < placed.length; i++) {
    const before = placed[i - 1];
    const after = placed[i];
    const runsOn = has(before.old_end) && has(after.old_start) && Math.abs(before.old_end - after.old_start) < SAME_CUT;
    if (!runsOn) {
      cuts.push({ at: after.new_start, before, after, transition: null,
        oldAt: has(after.old_start) ? after.old_start : has(before.old_end) ? before.old_end : null });
    }
  }
  const loose = [];
  for (const t of conform.transitions || []) {
    const cut = cuts.find((c) => !c.transition && t.at <= c.at + 1e-3 && t.at >= c.at - BEAT_BEFORE);
    if (cut) {
      cut.transition = t;
    } else {
      // A join inside a shot (the kept music handing over to the closing section): its span's own old time.
      const span = placed.find((s) => t.at >= s.new_start - 1e-3 && t.at < s.new_end);
      loose.push({ at: t.at, before: span || null, after: null, transition: t,
        oldAt: span && has(span.old_start) ? span.old_start + (t.at - span.new_start) : null });
    }
  }
  const all = [...cuts, ...loose].sort((a, b) => a.at - b.at);
  for (const c of all) c.music = musicAround(plan, c.transition ? c.transition.at : c.at);
  return all;
}

/** Which music plays either side of a moment: 'kept' (a section with an origin) or 'new'. */
function musicAround(plan, at) {
  const sections = plan ? plan.sections : [];
  const i = sections.findIndex((x) => at >= x.start - 1e-3 && at < x.end - 1e-3);
  if (i < 0) return null;
  const origin = (x) => (x && x.origin ? 'kept' : 'new');
  const starts = Math.abs(sections[i].start - at) < 1e-3;
  return { from: origin(starts ? sections[i - 1] || sections[i] : sections[i]), to: origin(sections[i]) };
}

const s = (t) => `${Number(t).toFixed(2)} s`;

/** What the music does at a changed cut, in one sentence. */
export function describeTransition(t, at) {
  if (!t) {
    return 'The music runs on: the same origin on both sides.';
  }
  if (t.beats === 0) {
    return `On a beat of both musics: no transition, the cut is struck${Math.abs(t.at - at) > 1e-3 ? ` (the kept music comes in on its beat at ${s(t.at)})` : ''}.`;
  }
  return `Bridged ${s(t.from)} to ${s(t.to)}: the outgoing music stops on its beat at ${s(t.from)}, `
    + `${t.beats} transition beat${t.beats === 1 ? '' : 's'} at ${Number(t.tempo).toFixed(0)} bpm (a snare fill up to the cut, the strike on it), `
    + `the incoming music in on its beat at ${s(t.to)}.`;
}

/** A changed cut's heading: where it is, and what meets there. */
export function describeCut(cut) {
  const music = cut.music ? `, ${cut.music.from} music → ${cut.music.to} music` : '';
  if (!cut.after) {
    return `At ${s(cut.at)}, inside the ${cut.before ? cut.before.kind : ''} shot${music}`;
  }
  return `Cut at ${s(cut.at)}: ${cut.before.kind} shot → ${cut.after.kind} shot${music}`;
}
