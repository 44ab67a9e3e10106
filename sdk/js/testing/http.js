/**
 * Test helpers (kept out of test/ so that `node --test` does not run them as tests):
 * a bot server on a free loopback port, and raw HTTP requests whose headers
 * the test controls exactly.
 */
import http from "node:http";
import { readFileSync } from "node:fs";

import { createBotServer } from "../src/server.js";
import { listen } from "../src/run.js";
import { signHeaders } from "../src/signing.js";

export const VECTORS = JSON.parse(
  readFileSync(new URL("../../signing-vectors.json", import.meta.url), "utf8"),
);

/** Captures what the server logs. */
export function quietLog() {
  const lines = [];
  const record = (...parts) => lines.push(parts.map(String).join(" "));
  return { lines, warn: record, error: record, info: record };
}

/** A bot server listening on 127.0.0.1 (a free port); call `close()` when done. */
export async function startBot(handler, options = {}) {
  const log = options.log ?? quietLog();
  const server = createBotServer(handler, {
    secret: "test-secret",
    name: "test-bot",
    version: "0.1",
    log,
    ...options,
  });
  const where = await listen(server, { host: "127.0.0.1", port: 0 });
  return {
    ...where,
    log,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/**
 * Send a request with exactly `headers` (plus Content-Length unless `chunked`);
 * resolves with `{ status, headers, json, ms }`.
 */
export function request(url, { method = "POST", body = "", headers = {}, chunked = false } = {}) {
  const data = Buffer.from(body, typeof body === "string" ? "utf8" : undefined);
  const sent = { ...headers };
  if (method === "POST" && !chunked) sent["Content-Length"] = String(data.length);
  if (chunked) sent["Transfer-Encoding"] = "chunked";
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers: sent, agent: false }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({
          status: response.statusCode,
          headers: response.headers,
          json,
          text,
          ms: performance.now() - started,
        });
      });
    });
    outgoing.on("error", reject);
    if (data.length) outgoing.write(data);
    outgoing.end();
  });
}

/** POST `message` (an object, sent as compact JSON) signed with `secret` at `timestamp`. */
export function signedPost(url, message, { secret = "test-secret", timestamp, raw } = {}) {
  const body = raw ?? JSON.stringify(message);
  const headers = { "Content-Type": "application/json", ...signHeaders(secret, body, timestamp) };
  return request(url, { body, headers });
}

export const GAME = { id: 7, engine: "manila", engine_version: "2", num_players: 3, options: {}, seat: 1 };

export function actRequest(overrides = {}) {
  return {
    protocol: 1,
    kind: "act",
    request_id: `act-${Math.random().toString(16).slice(2)}`,
    game: GAME,
    ply: 3,
    deadline_ms: 2000,
    view: { you: 1, private: {} },
    legal_actions: [{ type: "pass" }, { type: "bid", amount: 2 }, { type: "bid", amount: 3 }],
    default_action_index: 0,
    events: [],
    ...overrides,
  };
}
