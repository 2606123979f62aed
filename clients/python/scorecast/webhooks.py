"""Checks a webhook delivery's ``Scorecast-Signature`` header (``t=UNIX,v1=HEX``), as docs/WEBHOOKS.md describes."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Optional, Union

SIGNATURE_HEADER = "Scorecast-Signature"
TOLERANCE_SECONDS = 300


def verify_signature(secret: str, header: Optional[str], body: Union[bytes, str], tolerance: int = TOLERANCE_SECONDS,
                     now: Optional[float] = None) -> bool:
    """True when ``header`` signs ``body`` (the raw bytes received, before any parsing) with ``secret``.

    ``v1`` is the lowercase hex HMAC-SHA256, keyed with the whole secret, of ``t + "." + body``; it is
    compared in constant time, and a ``t`` more than ``tolerance`` seconds from ``now`` (this machine's
    clock) is refused, so that a recorded delivery cannot be played again later. One matching ``v1`` of
    several is enough.
    """
    if not secret or not header or body is None:
        return False
    if isinstance(body, str):
        body = body.encode("utf-8")
    t = None
    signatures = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            if not value.isdigit():
                return False
            t = int(value)
        elif key == "v1":
            signatures.append(value)
    current = time.time() if now is None else now
    if t is None or abs(current - t) > tolerance:
        return False
    expected = hmac.new(secret.encode("utf-8"), str(t).encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected.encode("ascii"), s.encode("ascii", "replace")) for s in signatures)
