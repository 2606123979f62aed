/**
 * A video upload in one call, the way the API wants it and generators cannot write: initialize with
 * the file's size and type; send the file in chunks of at most 8 MiB (or the server's smaller limit),
 * `parallel` at once, each with its SHA-256 in X-Chunk-Sha256 (a damaged chunk is refused and sent
 * again), each retried with a growing pause when the connection fails or the server answers 5xx, 408
 * or 429; complete. A resumed upload asks upload_status first and sends only the chunks missing or
 * different, with the same chunking as the upload it resumes.
 */
import { createHash } from "node:crypto";
import { open, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { Scorecast } from "./index";
import type { SyncAComplete200Response } from "./generated";

export const DEFAULT_PARALLEL = 4;
export const MAX_CHUNK = 8 * 1024 * 1024;
const ATTEMPTS = 4;
const TYPES: Record<string, string> = { ".mov": "video/quicktime", ".webm": "video/webm", ".mkv": "video/x-matroska" };

/** A chunk that could not be sent after every attempt, or was refused; uploadId names the upload to resume. */
export class UploadError extends Error {
  constructor(message: string, readonly uploadId: string, readonly status?: number) {
    super(message);
    this.name = "UploadError";
  }
}

export class VideoUpload {
  constructor(private readonly scorecast: Scorecast, private readonly parallel: number) {
    if (!(parallel >= 1)) throw new RangeError("parallel must be at least 1");
  }

  async upload(path: string, resumeId: string | undefined): Promise<SyncAComplete200Response> {
    const size = (await stat(path)).size;
    const present = new Map<number, string>();
    const sync = this.scorecast.sync;
    let uploadId: string;
    let chunk: number;
    if (resumeId === undefined) {
      const started = await sync.syncAInitialize({
        syncAInitializeRequest: { fileName: basename(path), fileSize: size, fileType: mediaType(path) },
      });
      uploadId = started.uploadId;
      chunk = Math.min(MAX_CHUNK, started.chunkSize);
    } else {
      uploadId = resumeId;
      const status = await sync.syncAUploadStatus({ uploadId: resumeId });
      chunk = MAX_CHUNK;
      for (const c of status.chunks ?? []) {
        if (c.index === undefined) continue;
        if (c.sha256) present.set(c.index, c.sha256);
        if (c.index === 0 && c.size) chunk = c.size; // every chunk but the last has the first one's size
      }
    }
    const count = Math.max(1, Math.ceil(size / chunk));
    const file = await open(path, "r");
    try {
      let next = 0;
      // `parallel` workers, each taking the next chunk until none is left; the first failure rejects the upload.
      const worker = async () => {
        for (let index = next++; index < count; index = next++) {
          const length = Math.min(chunk, size - index * chunk);
          const bytes = new Uint8Array(length);
          const { bytesRead } = await file.read(bytes, 0, length, index * chunk);
          if (bytesRead !== length) throw new UploadError(`${path} changed while it was being uploaded`, uploadId);
          const sha256 = createHash("sha256").update(bytes).digest("hex");
          if (present.get(index) === sha256) continue; // arrived whole before
          await this.send(uploadId, index, bytes, sha256);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.parallel, count) }, worker));
    } finally {
      await file.close();
    }
    return sync.syncAComplete({ syncACompleteRequest: { uploadId } });
  }

  /** One chunk, with its checksum, retried with a growing pause; a 4xx other than 408 and 429 is the caller's to fix. */
  private async send(uploadId: string, index: number, bytes: Uint8Array<ArrayBuffer>, sha256: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let status: number;
      let body: string;
      try {
        const response = await fetch(`${this.scorecast.baseUrl}/sync/upload_chunk`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${this.scorecast.apiKey}`, "Content-Type": "application/octet-stream",
            "X-Upload-Id": uploadId, "X-Chunk-Index": String(index), "X-Chunk-Sha256": sha256,
          },
          body: bytes,
          signal: AbortSignal.timeout(300_000),
        });
        status = response.status;
        body = await response.text();
      } catch (e) {
        if (attempt >= ATTEMPTS) {
          throw new UploadError(`chunk ${index} of upload ${uploadId} could not be sent (${e}); resume it with resumeUpload`, uploadId);
        }
        await pause(250 * 2 ** attempt);
        continue;
      }
      if (status >= 200 && status < 300) return;
      const retry = status >= 500 || status === 408 || status === 429;
      if (!retry || attempt >= ATTEMPTS) {
        throw new UploadError(`chunk ${index} of upload ${uploadId} was refused with ${status}: ${body}`, uploadId, status);
      }
      await pause(250 * 2 ** attempt);
    }
  }
}

/** The media type initialize is told, by the file's extension: MP4 unless it is a MOV, WebM or Matroska file. */
export function mediaType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? "video/mp4";
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
