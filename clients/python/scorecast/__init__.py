"""Scorecast's Python client.

The API classes and models in ``scorecast_client`` are generated from docs/openapi.json at build time
(openapi-generator's ``python`` generator); this package adds what generators do badly, written by
hand: :meth:`Scorecast.upload_video` (chunked, parallel, checksummed, resumable) and
:func:`verify_signature` (a webhook delivery's ``Scorecast-Signature``).

    from scorecast import connect
    scorecast = connect("http://localhost:8080", os.environ["SCORECAST_KEY"])
    video = scorecast.upload_video("clip.mp4")
"""

from scorecast.client import Scorecast, connect
from scorecast.upload import UploadError
from scorecast.webhooks import SIGNATURE_HEADER, TOLERANCE_SECONDS, verify_signature

__all__ = ["Scorecast", "connect", "UploadError", "verify_signature", "SIGNATURE_HEADER", "TOLERANCE_SECONDS"]
