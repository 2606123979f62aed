/**
 * Scorecast's TypeScript client (Node 20). The API classes and models under ./generated are generated
 * from docs/openapi.json at build time (openapi-generator's typescript-fetch generator); this adds
 * what generators do badly, written by hand: Scorecast.uploadVideo (chunked, parallel, checksummed,
 * resumable) and verifySignature (a webhook delivery's Scorecast-Signature).
 *
 *   const scorecast = connect("http://localhost:8080", process.env.SCORECAST_KEY!);
 *   const video = await scorecast.uploadVideo("clip.mp4");
 */
import { Configuration, PlayerApi, SyncAApi, SyncAComplete200Response, WebhooksApi } from "./generated";
import { DEFAULT_PARALLEL, VideoUpload } from "./upload";

export * from "./generated";
export { UploadError } from "./upload";
export { SIGNATURE_HEADER, TOLERANCE_SECONDS, verifySignature } from "./webhooks";

/** A client of one server acting with one API key. Make it with {@link connect}. */
export class Scorecast {
  /** Variant A: uploads, analysis, plans, executions, status, events. */
  readonly sync: SyncAApi;
  readonly webhooks: WebhooksApi;
  readonly player: PlayerApi;

  constructor(readonly configuration: Configuration, readonly baseUrl: string, readonly apiKey: string) {
    this.sync = new SyncAApi(configuration);
    this.webhooks = new WebhooksApi(configuration);
    this.player = new PlayerApi(configuration);
  }

  /** Uploads the file in one call (see upload.ts); resolves to what complete_video_upload answered. */
  uploadVideo(path: string, parallel: number = DEFAULT_PARALLEL): Promise<SyncAComplete200Response> {
    return new VideoUpload(this, parallel).upload(path, undefined);
  }

  /** Resumes the upload uploadId of the file: only the chunks the server lacks (or holds different) are sent. */
  resumeUpload(path: string, uploadId: string, parallel: number = DEFAULT_PARALLEL): Promise<SyncAComplete200Response> {
    return new VideoUpload(this, parallel).upload(path, uploadId);
  }
}

/** A client of the server at baseUrl (e.g. http://localhost:8080) acting with apiKey. */
export function connect(baseUrl: string, apiKey: string): Scorecast {
  const base = baseUrl.replace(/\/+$/, "");
  return new Scorecast(new Configuration({ basePath: base, accessToken: apiKey }), base, apiKey);
}
