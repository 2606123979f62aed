"""The Python client end to end against a running server (ClientsEndToEndTest runs it).

    python3 e2e.py BASE_URL API_KEY VIDEO OUT_WAV

Uploads VIDEO with upload_video and again by resuming a started upload, analyses it, makes a plan,
executes it, waits for it through /sync/status, downloads the music (audio_wav, a signed link) into
OUT_WAV, and registers a webhook to a receiver of its own whose test delivery verify_signature must
accept (and refuse once the body or the time is changed). Exits 0 and prints one JSON line on success.
The server must allow local webhooks (SCORECAST_WEBHOOKS_ALLOW_LOCAL=true).
"""

import hashlib
import json
import os
import queue
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import urllib3

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scorecast import SIGNATURE_HEADER, connect, verify_signature  # noqa: E402
from scorecast.upload import media_type  # noqa: E402
from scorecast_client.models import (  # noqa: E402
    CreateWebhookRequest, SyncAAnalyseRequest, SyncAExecuteRequest, SyncAGenerateRequest, SyncAInitializeRequest,
    SyncAStatusRequest)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wait(scorecast, job_id, seconds=120):
    deadline = time.monotonic() + seconds
    while True:
        status = scorecast.sync.sync_a_status(SyncAStatusRequest(job_id=job_id))
        if status.status not in ("pending", "processing") or time.monotonic() > deadline:
            return status
        time.sleep(0.2)


def receiver():
    """A webhook endpoint on 127.0.0.1: each delivery's signature header and raw body go into the queue."""
    got = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            got.put((self.headers.get(SIGNATURE_HEADER), body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, got


def main(base, key, video, out):
    times = {}
    t0 = time.monotonic()
    with connect(base, key) as scorecast:
        uploaded = scorecast.upload_video(video)
        check(uploaded.size == os.path.getsize(video), f"uploaded {uploaded.size} bytes of {os.path.getsize(video)}")

        # A resumed upload: its first chunk sent before (by the generated call, as an earlier run would have), the rest now.
        size = os.path.getsize(video)
        started = scorecast.sync.sync_a_initialize(SyncAInitializeRequest(
            file_name="again" + os.path.splitext(video)[1], file_size=size, file_type=media_type(video)))
        with open(video, "rb") as f:
            first = f.read(started.chunk_size)
        scorecast.sync.sync_a_upload_chunk(started.upload_id, 0, first, x_chunk_sha256=hashlib.sha256(first).hexdigest())
        resumed = scorecast.resume_upload(video, started.upload_id)
        check(resumed.crc32c == uploaded.crc32c, f"resumed upload crc32c {resumed.crc32c}, whole upload {uploaded.crc32c}")
        times["uploads_ms"] = round((time.monotonic() - t0) * 1000)

        analysis = scorecast.sync.sync_a_analyse(SyncAAnalyseRequest(video_id=uploaded.video_id))
        check(analysis.events_url, "analyse answers an events_url")
        analysed = wait(scorecast, analysis.job_id)
        check(analysed.status == "finished", f"analysis: {analysed}")
        plan = scorecast.sync.sync_a_generate(SyncAGenerateRequest(analysis_id=analysis.analysis_id, seed=4))
        run = scorecast.sync.sync_a_execute(SyncAExecuteRequest(plan_id=plan.plan_id))
        done = wait(scorecast, run.job_id)
        check(done.status == "finished", f"execution: {done}")
        times["analysis_and_execution_ms"] = round((time.monotonic() - t0) * 1000) - times["uploads_ms"]

        link = done.links["audio_wav"]
        audio = urllib3.request("GET", link if link.startswith("http") else base.rstrip("/") + link, retries=False)
        check(audio.status == 200, f"audio_wav answered {audio.status}")
        check(audio.data[:4] == b"RIFF" and audio.data[8:12] == b"WAVE", "audio_wav is a WAV file")
        with open(out, "wb") as f:
            f.write(audio.data)

        server, got = receiver()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/hook"
            hook = scorecast.webhooks.create_webhook(CreateWebhookRequest(url=url, events=["execution.finished"]))
            scorecast.webhooks.test_webhook(hook.webhook_id)
            header, body = got.get(timeout=20)
            check(verify_signature(hook.secret, header, body), f"the delivery's signature {header} verifies")
            check(json.loads(body)["type"] == "webhook.test", "a webhook.test event")
            check(not verify_signature(hook.secret, header, body + b" "), "a changed body is refused")
            check(not verify_signature("whsec_other", header, body), "another secret is refused")
            check(not verify_signature(hook.secret, header, body, now=time.time() + 301), "a delivery 301 s old is refused")
            scorecast.webhooks.delete_webhook(hook.webhook_id)
        finally:
            server.shutdown()
            server.server_close()
    times["total_ms"] = round((time.monotonic() - t0) * 1000)
    print(json.dumps({"ok": True, "video_id": uploaded.video_id, "execution_id": done.execution_id,
                      "audio_bytes": len(audio.data), **times}))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
