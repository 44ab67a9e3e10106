// src/signing.js against every case of the shared vectors (../signing-vectors.json).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  SIGNATURE_HEADER,
  SignatureError,
  TIMESTAMP_HEADER,
  TOLERANCE_SECONDS,
  computeSignature,
  signHeaders,
  verifySignature,
} from "../src/signing.js";
import { VECTORS } from "../testing/http.js";

test("the vectors describe this scheme", () => {
  assert.equal(VECTORS.scheme, "v1");
  assert.equal(VECTORS.timestamp_header, TIMESTAMP_HEADER);
  assert.equal(VECTORS.signature_header, SIGNATURE_HEADER);
  assert.equal(VECTORS.tolerance_seconds, TOLERANCE_SECONDS);
  assert.ok(VECTORS.signing.length >= 10 && VECTORS.verification.length >= 30);
});

describe("signing vectors", () => {
  for (const vector of VECTORS.signing) {
    test(vector.name, () => {
      assert.equal(computeSignature(vector.secret, vector.timestamp, vector.body), vector.signature);
      const bytes = Buffer.from(vector.body, "utf8");
      assert.equal(computeSignature(vector.secret, vector.timestamp, bytes), vector.signature);
      assert.deepEqual(signHeaders(vector.secret, bytes, vector.timestamp), vector.headers);
      assert.equal(
        verifySignature(vector.secret, bytes, vector.headers, { now: vector.timestamp }),
        vector.timestamp,
      );
    });
  }
});

describe("verification vectors", () => {
  for (const vector of VECTORS.verification) {
    test(`${vector.name} -> ${vector.expected}`, () => {
      const verify = () =>
        verifySignature(vector.secret, Buffer.from(vector.body, "utf8"), vector.headers, { now: vector.now });
      if (vector.expected === "ok") {
        assert.equal(verify(), vector.returns_timestamp);
      } else {
        assert.throws(
          verify,
          (error) =>
            error instanceof SignatureError && error.code === vector.expected && error.message.length > 0,
        );
      }
    });
  }
});

test("headers from fetch and from node:http are read alike", () => {
  const body = '{"kind":"ping"}';
  const signed = signHeaders("s", body, 1000);
  assert.equal(verifySignature("s", body, new Headers(signed), { now: 1000 }), 1000);
  const lowered = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), [v]]));
  assert.equal(verifySignature("s", body, lowered, { now: 1000 }), 1000);
});

test("signHeaders defaults to the current second", () => {
  const before = Math.floor(Date.now() / 1000);
  const headers = signHeaders("s", "x");
  const stamp = Number(headers[TIMESTAMP_HEADER]);
  assert.ok(stamp >= before && stamp <= before + 1);
  assert.equal(verifySignature("s", "x", headers), stamp);
});

test("an empty secret is refused", () => {
  assert.throws(() => computeSignature("", 1, "x"), /must not be empty/);
  assert.throws(() => verifySignature("", "x", signHeaders("s", "x", 1), { now: 1 }), /must not be empty/);
});
