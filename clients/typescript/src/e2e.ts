/**
 * The TypeScript client end to end against a running server (ClientsEndToEndTest runs it):
 *
 *   node dist/e2e.js BASE_URL API_KEY VIDEO OUT_WAV
 *
 * Uploads VIDEO with uploadVideo and again by resuming a started upload, analyses it, makes a plan,
 * executes it, waits for it through /sync/status, downloads the music (audio_wav, a signed link) into
 * OUT_WAV, and registers a webhook to a receiver of its own whose test delivery verifySignature must
 * accept (and refuse once the body or the time is changed). Exits 0 and prints one JSON line on success.
 * The server must allow local webhooks (SCORECAST_WEBHOOKS_ALLOW_LOCAL=true).
 */
import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";
import { connect, Scorecast, SIGNATURE_HEADER, SyncAStatus200Response, verifySignature } from "./index";
import { mediaType } from "./upload";

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function wait(scorecast: Scorecast, jobId: string, seconds = 120): Promise<SyncAStatus200Response> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const status = await scorecast.sync.syncAStatus({ syncAStatusRequest: { jobId } });
    if ((status.status !== "pending" && status.status !== "processing") || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(base: string, key: string, video: string, out: string): Promise<void> {
  const t0 = Date.now();
  const scorecast = connect(base, key);
  const size = (await stat(video)).size;
  const uploaded = await scorecast.uploadVideo(video);
  check(uploaded.size === size, `uploaded ${uploaded.size} bytes of ${size}`);

  // A resumed upload: its first chunk sent before (by the generated call, as an earlier run would have), the rest now.
  const started = await scorecast.sync.syncAInitialize({
    syncAInitializeRequest: { fileName: "again" + extname(video), fileSize: size, fileType: mediaType(video) },
  });
  const first = (await readFile(video)).subarray(0, started.chunkSize);
  await scorecast.sync.syncAUploadChunk({
    xUploadId: started.uploadId, xChunkIndex: 0, body: new Blob([first]), xChunkSha256: createHash("sha256").update(first).digest("hex"),
  });
  const resumed = await scorecast.resumeUpload(video, started.uploadId);
  check(resumed.crc32c === uploaded.crc32c, `resumed upload crc32c ${resumed.crc32c}, whole upload ${uploaded.crc32c}`);
  const uploadsMs = Date.now() - t0;

  const analysis = await scorecast.sync.syncAAnalyse({ syncAAnalyseRequest: { videoId: uploaded.videoId } });
  check(analysis.eventsUrl, "analyse answers an events_url");
  const analysed = await wait(scorecast, analysis.jobId);
  check(analysed.status === "finished", `analysis: ${JSON.stringify(analysed)}`);
  const plan = await scorecast.sync.syncAGenerate({ syncAGenerateRequest: { analysisId: analysis.analysisId, seed: 4 } });
  const run = await scorecast.sync.syncAExecute({ syncAExecuteRequest: { planId: plan.planId } });
  const done = await wait(scorecast, run.jobId);
  check(done.status === "finished", `execution: ${JSON.stringify(done)}`);
  const analysisAndExecutionMs = Date.now() - t0 - uploadsMs;

  const link = done.links?.["audio_wav"];
  check(link, `no audio_wav among the links: ${JSON.stringify(done.links)}`);
  const audio = await fetch(link.startsWith("http") ? link : base.replace(/\/+$/, "") + link);
  check(audio.status === 200, `audio_wav answered ${audio.status}`);
  const wav = Buffer.from(await audio.arrayBuffer());
  check(wav.toString("latin1", 0, 4) === "RIFF" && wav.toString("latin1", 8, 12) === "WAVE", "audio_wav is a WAV file");
  await writeFile(out, wav);

  // A webhook endpoint of our own on 127.0.0.1: each delivery's signature header and raw body.
  const deliveries: Array<{ header: string | undefined; body: Buffer }> = [];
  const receiver = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      deliveries.push({ header: request.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined, body: Buffer.concat(parts) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await scorecast.webhooks.createWebhook({ createWebhookRequest: { url, events: ["execution.finished"] } });
    await scorecast.webhooks.testWebhook({ webhookId: hook.webhookId });
    const deadline = Date.now() + 20_000;
    while (deliveries.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    check(deliveries.length > 0, "no webhook delivery within 20 s");
    const { header, body } = deliveries[0];
    check(verifySignature(hook.secret, header, body), `the delivery's signature ${header} verifies`);
    check(JSON.parse(body.toString("utf8")).type === "webhook.test", "a webhook.test event");
    check(!verifySignature(hook.secret, header, Buffer.concat([body, Buffer.from(" ")])), "a changed body is refused");
    check(!verifySignature("whsec_other", header, body), "another secret is refused");
    check(!verifySignature(hook.secret, header, body, 300, Date.now() / 1000 + 301), "a delivery 301 s old is refused");
    await scorecast.webhooks.deleteWebhook({ webhookId: hook.webhookId });
  } finally {
    receiver.close();
  }
  console.log(JSON.stringify({
    ok: true, video_id: uploaded.videoId, execution_id: done.executionId, audio_bytes: wav.length,
    uploads_ms: uploadsMs, analysis_and_execution_ms: analysisAndExecutionMs, total_ms: Date.now() - t0,
  }));
}

const args = process.argv.slice(2);
if (args.length !== 4) {
  console.error("usage: node dist/e2e.js BASE_URL API_KEY VIDEO OUT_WAV");
  process.exit(2);
}
main(args[0], args[1], args[2], args[3]).catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
