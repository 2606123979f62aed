"""A video upload in one call, the way the API wants it and generators cannot write.

Initialize with the file's size and type; send the file in chunks of at most 8 MiB (or the server's
smaller limit), ``parallel`` at once, each with its SHA-256 in ``X-Chunk-Sha256`` (a damaged chunk is
refused and sent again), each retried with a growing pause when the connection fails or the server
answers 5xx, 408 or 429; complete. A resumed upload asks upload_status first and sends only the
chunks missing or different, with the same chunking as the upload it resumes.
"""

from __future__ import annotations

import hashlib
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Dict, Optional

import urllib3
from scorecast_client.exceptions import ApiException
from scorecast_client.models import SyncACompleteRequest, SyncAInitializeRequest

if TYPE_CHECKING:
    from scorecast.client import Scorecast

DEFAULT_PARALLEL = 4
MAX_CHUNK = 8 << 20
ATTEMPTS = 4

_TYPES = {".mov": "video/quicktime", ".webm": "video/webm", ".mkv": "video/x-matroska"}


class UploadError(Exception):
    """A chunk could not be sent after every attempt; ``upload_id`` names the upload to resume."""

    def __init__(self, message: str, upload_id: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.upload_id = upload_id
        self.status = status


class VideoUpload:
    def __init__(self, scorecast: "Scorecast", parallel: int) -> None:
        if parallel < 1:
            raise ValueError("parallel must be at least 1")
        self._scorecast = scorecast
        self._parallel = parallel

    def upload(self, path: str, resume_id: Optional[str]):
        size = os.path.getsize(path)
        present: Dict[int, str] = {}
        sync = self._scorecast.sync
        if resume_id is None:
            started = sync.sync_a_initialize(SyncAInitializeRequest(
                file_name=os.path.basename(path), file_size=size, file_type=media_type(path)))
            upload_id = started.upload_id
            chunk = min(MAX_CHUNK, started.chunk_size)
        else:
            upload_id = resume_id
            status = sync.sync_a_upload_status(resume_id)
            chunk = MAX_CHUNK
            for c in status.chunks or []:
                present[c.index] = c.sha256
                if c.index == 0:
                    chunk = c.size  # every chunk but the last has the first one's size
        count = max(1, -(-size // chunk))

        def one(index: int) -> None:
            with open(path, "rb") as f:
                f.seek(index * chunk)
                data = f.read(min(chunk, size - index * chunk))
            sha256 = hashlib.sha256(data).hexdigest()
            if present.get(index) == sha256:
                return  # arrived whole before
            self.send(upload_id, index, data, sha256)

        with ThreadPoolExecutor(max_workers=self._parallel) as pool:
            for future in [pool.submit(one, i) for i in range(count)]:
                future.result()  # the first failure is raised here, naming the upload to resume
        return sync.sync_a_complete(SyncACompleteRequest(upload_id=upload_id))

    def send(self, upload_id: str, index: int, data: bytes, sha256: str) -> None:
        """One chunk, with its checksum, retried with a growing pause; a 4xx other than 408 and 429 is the caller's to fix."""
        client = self._scorecast.api_client
        headers = dict(client.default_headers)
        headers.update({"Content-Type": "application/octet-stream", "X-Upload-Id": upload_id,
                        "X-Chunk-Index": str(index), "X-Chunk-Sha256": sha256})
        url = self._scorecast.base_url + "/sync/upload_chunk"
        pool = client.rest_client.pool_manager
        timeout = urllib3.Timeout(connect=10.0, read=self._scorecast.timeout)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                response = pool.request("POST", url, body=data, headers=headers, timeout=timeout, retries=False)
            except urllib3.exceptions.HTTPError as e:
                if attempt == ATTEMPTS:
                    raise UploadError(f"chunk {index} of upload {upload_id} could not be sent ({e}); resume it with resume_upload",
                                      upload_id) from e
                time.sleep(0.25 * (2 ** attempt))
                continue
            if 200 <= response.status < 300:
                return
            retry = response.status >= 500 or response.status in (408, 429)
            if not retry or attempt == ATTEMPTS:
                raise ApiException(status=response.status, reason=f"chunk {index} of upload {upload_id} was refused",
                                   body=response.data.decode("utf-8", "replace"))
            time.sleep(0.25 * (2 ** attempt))


def media_type(path: str) -> str:
    return _TYPES.get(os.path.splitext(path)[1].lower(), "video/mp4")
