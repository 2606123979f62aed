// Parallel, resumable chunked upload through variant A (/sync/...). The upload id of a file is kept
// in localStorage under the file's name, size and modification time, so choosing the same file
// again after a reload or a dropped connection sends only the chunks upload_status lacks.

import { ApiError, get, post, putChunk } from './api.js';

const CHUNK_BYTES = 8 * 1024 * 1024;
// Smaller chunks for a slow or flaky connection (and for the tests): localStorage['scorecast.chunkBytes'].
const chunkBytesWanted = () => Math.max(65536, Number(localStorage.getItem('scorecast.chunkBytes')) || CHUNK_BYTES);
const PARALLEL = 3;
const RETRIES = 4;

function resumeKey(file) {
  return `scorecast.upload:${file.name}:${file.size}:${file.lastModified}`;
}

/** A media type the server accepts for a file whose browser type is empty or generic. */
function mediaType(file) {
  if (file.type) {
    return file.type;
  }
  const ext = file.name.split('.').pop().toLowerCase();
  return { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska' }[ext]
    || 'application/octet-stream';
}

async function existing(file) {
  const saved = localStorage.getItem(resumeKey(file));
  if (!saved) {
    return null;
  }
  const { uploadId, chunkBytes } = JSON.parse(saved);
  try {
    const status = await get(`/sync/upload_status?upload_id=${encodeURIComponent(uploadId)}`);
    if (status.state === 'complete' || status.video_id) {
      // Completed by an earlier page: upload it again as a new video.
      localStorage.removeItem(resumeKey(file));
      return null;
    }
    return { uploadId, chunkBytes, status };
  } catch (e) {
    // Expired or unknown: start again.
    localStorage.removeItem(resumeKey(file));
    return null;
  }
}

/**
 * Uploads a file and completes it; onProgress gets {sent, total, rate (bytes/s), left (s), resumed}.
 * Answers complete_video_upload's video description.
 */
export async function uploadVideo(file, onProgress) {
  const resume = await existing(file);
  let uploadId;
  let chunkBytes;
  const have = new Map();
  if (resume) {
    ({ uploadId, chunkBytes } = resume);
    for (const c of resume.status.chunks || []) {
      have.set(c.index, c.size);
    }
  } else {
    const init = await post('/sync/initialize_video_upload', { file_name: file.name, file_size: file.size, file_type: mediaType(file) });
    uploadId = init.upload_id;
    chunkBytes = Math.min(init.chunk_size, chunkBytesWanted());
    localStorage.setItem(resumeKey(file), JSON.stringify({ uploadId, chunkBytes }));
  }
  const count = Math.max(1, Math.ceil(file.size / chunkBytes));
  const todo = [];
  let already = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.min(chunkBytes, file.size - i * chunkBytes);
    if (have.get(i) === size) {
      already += size;
    } else {
      todo.push(i);
    }
  }
  const inFlight = new Map();
  let done = already;
  const started = performance.now();
  const report = () => {
    let sent = done;
    for (const v of inFlight.values()) sent += v;
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0.2 ? (sent - already) / seconds : 0;
    onProgress({ sent, total: file.size, rate, left: rate > 0 ? (file.size - sent) / rate : null, resumed: already > 0 });
  };
  report();
  {
    const queue = [...todo];
    const worker = async () => {
      while (queue.length) {
        const index = queue.shift();
        const blob = file.slice(index * chunkBytes, Math.min(file.size, (index + 1) * chunkBytes));
        for (let attempt = 0; ; attempt++) {
          try {
            await putChunk(uploadId, index, blob, (loaded) => { inFlight.set(index, loaded); report(); });
            inFlight.delete(index);
            done += blob.size;
            report();
            break;
          } catch (e) {
            inFlight.delete(index);
            // A refusal (4xx) is final; a dropped connection or a 5xx is tried again after a pause.
            if ((e.status >= 400 && e.status < 500) || attempt >= RETRIES) {
              throw e;
            }
            await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length || 1) }, worker));
  }
  let video;
  try {
    video = await post('/sync/complete_video_upload', { upload_id: uploadId });
  } catch (e) {
    if (e instanceof ApiError && e.status !== 409) {
      localStorage.removeItem(resumeKey(file));
    }
    throw e;
  }
  localStorage.removeItem(resumeKey(file));
  return video;
}
