/**
 * Request signing for bot protocol v1, exactly as the Python SDK
 * (`harbormaster_bot.signing`) does it; `../signing-vectors.json` is the
 * contract both are tested against.
 *
 * Every request the referee sends carries two headers:
 *
 *     X-Harbormaster-Timestamp: 1767225600
 *     X-Harbormaster-Signature: v1=<hex HMAC-SHA256(secret, "{timestamp}.{raw body}")>
 *
 * Signing the timestamp with the raw body proves the request comes from
 * Harbormaster (only it and the bot know the secret) and lets the bot
 * refuse a recorded request replayed later (the timestamp must be recent).
 * Verify over the body's bytes as received: re-serialised JSON has other
 * bytes and another signature.
 *
 * During a secret rotation the header may hold several comma-separated
 * signatures (`v1=aaa,v1=bbb`); a request is genuine when any matches.
 * Unknown schemes (`v2=...`) are ignored, so a future scheme can be added
 * without breaking v1 verifiers.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const TIMESTAMP_HEADER = "X-Harbormaster-Timestamp";
export const SIGNATURE_HEADER = "X-Harbormaster-Signature";
export const SCHEME = "v1";
/** A timestamp further than this from the verifier's clock is refused (5 minutes). */
export const TOLERANCE_SECONDS = 300;

/**
 * A request whose signature cannot be trusted. `code` is a stable reason:
 * `missing_signature`, `malformed_signature`, `stale_timestamp`,
 * `bad_signature` (the server adds `replayed_request`).
 */
export class SignatureError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SignatureError";
    this.code = code;
  }
}

// Python's str.strip() removes these (str.isspace); JavaScript's trim() differs
// on a few control characters, so both kits trim the same way.
const PY_SPACE =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGE_SPACE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");
const strip = (text) => text.replace(EDGE_SPACE, "");

// What Python's int() accepts from ASCII text: a sign, digits, single underscores between them.
// Plain decimal digits, no sign, no leading zero: the signature covers the header's text.
const TIMESTAMP_DIGITS = /^(?:0|[1-9][0-9]{0,14})$/;

function key(secret) {
  const bytes = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret ?? []);
  if (bytes.length === 0) throw new Error("a signing secret must not be empty");
  return bytes;
}

function bodyBytes(body) {
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
}

function hexDigest(secret, timestamp, body) {
  const stamp = String(timestamp);
  if (!/^[\x00-\x7f]*$/.test(stamp)) throw new Error(`timestamp must be ASCII, not ${JSON.stringify(stamp)}`);
  return createHmac("sha256", key(secret))
    .update(Buffer.from(`${stamp}.`, "ascii"))
    .update(bodyBytes(body))
    .digest("hex");
}

/** The header value `v1=<hex>` for `body` (bytes, or a string sent as UTF-8) sent at `timestamp`. */
export function computeSignature(secret, timestamp, body) {
  return `${SCHEME}=${hexDigest(secret, timestamp, body)}`;
}

/** The two headers that authenticate `body`; `timestamp` (whole seconds) defaults to now. */
export function signHeaders(secret, body, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: computeSignature(secret, timestamp, body),
  };
}

/** Case-insensitive lookup in a plain object, a Map or a fetch Headers; the first of a list. */
function header(headers, name) {
  let value;
  if (typeof headers?.get === "function") {
    value = headers.get(name) ?? headers.get(name.toLowerCase());
  } else {
    value = headers?.[name];
    if (value === undefined) {
      const lowered = name.toLowerCase();
      for (const [candidate, text] of Object.entries(headers ?? {})) {
        if (candidate.toLowerCase() === lowered) {
          value = text;
          break;
        }
      }
    }
  }
  return Array.isArray(value) ? value[0] : value;
}

function parseTimestamp(text) {
  const stripped = strip(text);
  if (!TIMESTAMP_DIGITS.test(stripped)) {
    throw new SignatureError(
      "malformed_signature",
      `${TIMESTAMP_HEADER} must be whole seconds since the Unix epoch in decimal digits, not ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  return Number(stripped);
}

/**
 * Check the signature headers of a request; return its timestamp.
 *
 * Throws SignatureError when a header is missing or malformed, the timestamp
 * is more than `tolerance` seconds from `now` (Unix seconds, fractions
 * allowed; either direction: a clock far ahead is as suspicious as a replay),
 * or no v1 signature matches. Comparison is constant-time (timingSafeEqual),
 * and every offered signature is compared, so the time taken does not tell
 * which one matched.
 */
export function verifySignature(secret, body, headers, { now, tolerance = TOLERANCE_SECONDS } = {}) {
  const timestampText = header(headers, TIMESTAMP_HEADER);
  const signatureText = header(headers, SIGNATURE_HEADER);
  if (!timestampText || !signatureText) {
    throw new SignatureError(
      "missing_signature",
      `the request needs both ${TIMESTAMP_HEADER} and ${SIGNATURE_HEADER} headers`,
    );
  }
  const timestamp = parseTimestamp(timestampText);
  const current = now ?? Date.now() / 1000;
  const skew = current - timestamp;
  if (Math.abs(skew) > tolerance) {
    const direction = skew > 0 ? "old" : "in the future";
    throw new SignatureError(
      "stale_timestamp",
      `timestamp ${timestamp} is ${Math.abs(Math.trunc(skew))} s ${direction}; ` +
        `at most ${tolerance} s of difference is accepted (check the bot's clock)`,
    );
  }
  const prefix = `${SCHEME}=`;
  const offered = signatureText
    .split(",")
    .map(strip)
    .filter((part) => part.startsWith(prefix))
    .map((part) => part.slice(prefix.length));
  if (offered.length === 0) {
    throw new SignatureError("malformed_signature", `${SIGNATURE_HEADER} has no ${prefix}<hex> signature`);
  }
  const expected = Buffer.from(hexDigest(secret, timestamp, body), "ascii");
  let matched = false;
  for (const candidate of offered) {
    const given = Buffer.from(candidate, "utf8");
    // Lengths are public (a v1 digest is 64 hex digits); contents are compared in constant time.
    const same = given.length === expected.length && timingSafeEqual(given, expected);
    matched = same || matched;
  }
  if (!matched) {
    throw new SignatureError(
      "bad_signature",
      "the signature does not match the body: check the bot's secret " +
        "(it changes when rotated) and sign the raw body bytes as received",
    );
  }
  return timestamp;
}
