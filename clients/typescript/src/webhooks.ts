/** Checks a webhook delivery's Scorecast-Signature header (t=UNIX,v1=HEX), as docs/WEBHOOKS.md describes. */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "Scorecast-Signature";
export const TOLERANCE_SECONDS = 300;

/**
 * True when header signs body (the raw bytes received, before any parsing) with secret. v1 is the
 * lowercase hex HMAC-SHA256, keyed with the whole secret, of t + "." + body; it is compared in
 * constant time, and a t more than toleranceSeconds from nowSeconds (this machine's clock) is
 * refused, so that a recorded delivery cannot be played again later. One matching v1 of several is enough.
 */
export function verifySignature(secret: string, header: string | null | undefined, body: Uint8Array | string,
                                toleranceSeconds: number = TOLERANCE_SECONDS, nowSeconds: number = Date.now() / 1000): boolean {
  if (!secret || !header || body == null) return false;
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t") {
      if (!/^\d+$/.test(value)) return false;
      t = Number(value);
    } else if (key === "v1") {
      signatures.push(value);
    }
  }
  if (t === undefined || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex"));
  let match = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature);
    match = (given.length === expected.length && timingSafeEqual(given, expected)) || match;
  }
  return match;
}
