// The public API as the studio uses it: every call carries the key; a refusal becomes an ApiError
// holding the server's own envelope ({error, message, field, problems?}).

const KEY = 'scorecast.apiKey';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }

  /** Every {field, message} the server named (one, or the list under problems). */
  problems() {
    if (Array.isArray(this.body.problems) && this.body.problems.length) {
      return this.body.problems;
    }
    return this.body.field ? [{ field: this.body.field, message: this.body.message }] : [];
  }
}

/** A sentence for a person: the API's own message and its status, or the error's. */
export function message(e) {
  if (e instanceof ApiError) {
    return e.status === 0 ? e.message : `${e.message}${e.body.error ? ` (${e.status} ${e.body.error})` : ''}`;
  }
  return e && e.message ? e.message : String(e);
}

export const session = {
  key() { return sessionStorage.getItem(KEY); },
  signIn(key) { sessionStorage.setItem(KEY, key); },
  signOut() { sessionStorage.removeItem(KEY); },
};

function headers(extra) {
  const h = { Authorization: `Bearer ${session.key()}`, ...extra };
  return h;
}

async function answer(response) {
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = { message: text }; }
  if (!response.ok) {
    throw new ApiError(response.status, body);
  }
  return body;
}

export async function get(path) {
  return answer(await fetch(path, { headers: headers() }));
}

/** A GET whose answer is not JSON (an image): the Response itself, or an ApiError. */
export async function getRaw(path) {
  const response = await fetch(path, { headers: headers() });
  if (!response.ok) {
    await answer(response);
  }
  return response;
}

export async function post(path, body) {
  const init = { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
  }
  return answer(await fetch(path, init));
}

/**
 * Follows a job started by /sync/video_analysis or /sync/execute to its end, reporting its progress
 * ({status, stage, progress, message}) as it comes, and resolves with what /sync/status answers at
 * the end. It listens to the job's Server-Sent Events (GET /sync/events, through the signed
 * events_url, since EventSource sends no Authorization header); only if that fails (no EventSource,
 * the link refused or expired, the connection lost) does it poll /sync/status instead.
 * `via` reports which it used ('events' or 'polling').
 */
export function followJob(started, onStatus, intervalMs = 400, via = () => {}) {
  if (typeof EventSource === 'undefined' || !started.events_url) {
    via('polling');
    return pollJob(started.job_id, onStatus, intervalMs);
  }
  // The link's path on this page's own origin: the same server, whatever base URL it signs links with.
  const link = new URL(started.events_url, window.location.href);
  return new Promise((resolve, reject) => {
    let done = false;
    const events = new EventSource(link.pathname + link.search);
    via('events');
    events.addEventListener('progress', (e) => {
      const p = JSON.parse(e.data);
      onStatus({ status: p.status, stage: p.stage, progress: p.progress, message: p.message, job_id: p.job_id });
    });
    events.addEventListener('status', (e) => {
      done = true;
      events.close();
      const status = JSON.parse(e.data);
      onStatus(status);
      resolve(status);
    });
    events.onerror = () => {
      if (done) {
        return;
      }
      done = true;
      events.close();
      via('polling');
      pollJob(started.job_id, onStatus, intervalMs).then(resolve, reject);
    };
  });
}

/** Polls /sync/status for a job until it finishes or fails, reporting every answer. */
export async function pollJob(jobId, onStatus, intervalMs = 400) {
  for (;;) {
    const status = await post('/sync/status', { job_id: jobId });
    onStatus(status);
    if (status.status === 'finished' || status.status === 'error' || status.status === 'inactive') {
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** One chunk as raw bytes through XMLHttpRequest (fetch reports no upload progress). */
export function putChunk(uploadId, index, blob, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/sync/upload_chunk');
    xhr.setRequestHeader('Authorization', `Bearer ${session.key()}`);
    xhr.setRequestHeader('X-Upload-Id', uploadId);
    xhr.setRequestHeader('X-Chunk-Index', String(index));
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = { message: xhr.responseText }; }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
      } else {
        reject(new ApiError(xhr.status, body));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, { error: 'network', message: 'The connection dropped.' }));
    xhr.send(blob);
  });
}
