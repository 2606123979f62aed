"""One connection carrying the API key, with the generated API classes on it and the upload helper."""

from __future__ import annotations

import os
import scorecast_client
from scorecast_client.models import SyncAComplete200Response

from scorecast.upload import DEFAULT_PARALLEL, VideoUpload


class Scorecast:
    """A client of one server acting with one API key. Make it with :func:`connect`."""

    def __init__(self, api_client: scorecast_client.ApiClient, timeout: float = 300.0) -> None:
        self.api_client = api_client
        self.timeout = timeout
        """Seconds a chunk may take to be answered."""
        self.sync = scorecast_client.SyncAApi(api_client)
        """Variant A: uploads, analysis, plans, executions, status, events."""
        self.webhooks = scorecast_client.WebhooksApi(api_client)
        self.player = scorecast_client.PlayerApi(api_client)

    @property
    def base_url(self) -> str:
        return self.api_client.configuration.host

    def upload_video(self, path: str | os.PathLike, parallel: int = DEFAULT_PARALLEL) -> SyncAComplete200Response:
        """Uploads the file in one call (see :mod:`scorecast.upload`); returns what complete_video_upload answered."""
        return VideoUpload(self, parallel).upload(os.fspath(path), None)

    def resume_upload(self, path: str | os.PathLike, upload_id: str, parallel: int = DEFAULT_PARALLEL) -> SyncAComplete200Response:
        """Resumes the upload ``upload_id`` of the file: only the chunks the server lacks (or holds different) are sent."""
        return VideoUpload(self, parallel).upload(os.fspath(path), upload_id)

    def close(self) -> None:
        self.api_client.rest_client.pool_manager.clear()

    def __enter__(self) -> "Scorecast":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(base_url: str, api_key: str, timeout: float = 300.0) -> Scorecast:
    """A client of the server at ``base_url`` (e.g. ``http://localhost:8080``) acting with ``api_key``."""
    configuration = scorecast_client.Configuration(host=base_url.rstrip("/"), access_token=api_key)
    client = scorecast_client.ApiClient(configuration)
    # The generated calls send the key from the configuration (bearer scheme); the hand-written ones from here.
    client.set_default_header("Authorization", "Bearer " + api_key)
    return Scorecast(client, timeout)
