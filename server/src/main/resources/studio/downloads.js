// The outputs of a finished execution as a list of links, each named for a person and found by the
// tests by `download-NAME` (the link's name with hyphens: `download-cue-sheet-csv`).

export const DOWNLOADS = { video: 'Video (MP4)', audio_wav: 'Soundtrack (WAV)', audio_mp3: 'Soundtrack (MP3)', stems: 'Stems (ZIP)',
  midi: 'MIDI', plan: 'Plan (JSON)', analysis: 'Analysis (JSON)', results: 'Results (JSON)',
  fcpxml: 'Timeline for Final Cut Pro and Resolve (FCPXML)', otio: 'Timeline (OpenTimelineIO)',
  cue_sheet_csv: 'Cue sheet (CSV)', cue_sheet_json: 'Cue sheet (JSON)' };

/** Fills `list` (a ul) with a link per entry of an execution's `links`. */
export function showDownloads(list, links, prefix = 'download') {
  list.replaceChildren();
  for (const [name, url] of Object.entries(links || {})) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = url;
    a.textContent = DOWNLOADS[name] || name;
    a.download = '';
    a.setAttribute('data-testid', `${prefix}-${name.replaceAll('_', '-')}`);
    li.append(a);
    list.append(li);
  }
}
