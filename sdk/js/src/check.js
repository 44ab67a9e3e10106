#!/usr/bin/env node
/**
 * Check a running bot endpoint the way the referee talks to it:
 *
 *     node src/check.js http://127.0.0.1:8001/ [--secret S] [--deadline-ms 2000]
 *
 * Sends a signed `ping` and a signed `act` (a small made-up position),
 * checks the replies against protocol v1 and prints what happened; exit
 * status 0 when both are right, 1 when a check failed, 2 when the bot could
 * not be reached. The JavaScript twin of the Python SDK's
 * `python -m harbormaster_bot.check`.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual, parseArgs } from "node:util";

import { isMain } from "./run.js";
import { SECRET_ENV } from "./server.js";
import { signHeaders } from "./signing.js";

export const SAMPLE_LEGAL = [{ type: "pass" }, { type: "bid", amount: 1 }, { type: "bid", amount: 2 }];

const newId = () => randomUUID().replaceAll("-", "");

/** A made-up but well-formed act request. */
export function sampleActRequest(deadlineMs) {
  return {
    protocol: 1,
    kind: "act",
    request_id: newId(),
    game: { id: "check", engine: "sample", engine_version: "1", num_players: 2, options: {}, seat: 0 },
    ply: 0,
    deadline_ms: deadlineMs,
    view: { you: 0, private: {} },
    legal_actions: SAMPLE_LEGAL,
    events: [],
  };
}

/**
 * POST a signed message; `{ status, reply, ms }` (reply parsed as JSON when it is).
 * node:http rather than fetch, which refuses some ports (6000, 6665-6669, ...) a bot may use.
 */
export function send(url, secret, message, timeoutMs) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const headers = {
    "Content-Type": "application/json",
    "Content-Length": body.length,
    ...signHeaders(secret, body),
  };
  const started = performance.now();
  const client = new URL(url).protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, { method: "POST", headers, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let reply;
        try {
          reply = JSON.parse(text);
        } catch {
          reply = text.slice(0, 500);
        }
        resolve({ status: response.statusCode, reply, ms: performance.now() - started });
      });
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** What is wrong with a ping reply (empty when it is fine), per ping-reply.schema.json. */
export function problemsWithPingReply(reply, request) {
  if (reply === null || typeof reply !== "object" || Array.isArray(reply))
    return ["the reply must be a JSON object"];
  const found = [];
  if (reply.request_id !== request.request_id)
    found.push(`request_id is ${JSON.stringify(reply.request_id)}, expected the request's`);
  for (const field of ["name", "version"]) {
    const value = reply[field];
    if (typeof value !== "string" || value.length < 1 || value.length > 100)
      found.push(`${field} must be a string of 1 to 100 characters`);
  }
  if ("protocol" in reply && !(Number.isInteger(reply.protocol) && reply.protocol >= 1))
    found.push("protocol must be a whole number from 1");
  return found;
}

/** What is wrong with an act reply (empty when it is fine), per act-reply.schema.json. */
export function problemsWithActReply(reply, request) {
  if (reply === null || typeof reply !== "object" || Array.isArray(reply))
    return ["the reply must be a JSON object"];
  const found = [];
  if (reply.request_id !== request.request_id)
    found.push(`request_id is ${JSON.stringify(reply.request_id)}, expected the request's`);
  const legal = request.legal_actions;
  if ("action" in reply === "action_index" in reply) {
    found.push('give exactly one of "action" or "action_index"');
  } else if ("action_index" in reply) {
    const index = reply.action_index;
    if (!Number.isInteger(index) || index < 0 || index >= legal.length) {
      found.push(`action_index ${JSON.stringify(index)} is not in 0..${legal.length - 1}`);
    }
  } else if (!legal.some((action) => isDeepStrictEqual(action, reply.action))) {
    found.push(`action ${JSON.stringify(reply.action)} is not among legal_actions`);
  }
  return found;
}

/** Run both checks, printing as it goes (`print`); the exit status. */
export async function check(url, secret, { deadlineMs = 2000, print = console.log } = {}) {
  let failures = 0;
  try {
    const ping = { protocol: 1, kind: "ping", request_id: newId() };
    let { status, reply, ms } = await send(url, secret, ping, deadlineMs);
    print(`ping: HTTP ${status} in ${ms.toFixed(0)} ms: ${JSON.stringify(reply)}`);
    let issues = status === 200 ? problemsWithPingReply(reply, ping) : [`HTTP ${status}`];
    for (const issue of issues) print(`  problem: ${issue}`);
    failures += issues.length > 0;
    const act = sampleActRequest(deadlineMs);
    ({ status, reply, ms } = await send(url, secret, act, deadlineMs));
    print(`act:  HTTP ${status} in ${ms.toFixed(0)} ms: ${JSON.stringify(reply)}`);
    issues = status === 200 ? problemsWithActReply(reply, act) : [`HTTP ${status}`];
    if (ms > deadlineMs) issues.push(`took ${ms.toFixed(0)} ms, over the ${deadlineMs} ms deadline`);
    for (const issue of issues) print(`  problem: ${issue}`);
    failures += issues.length > 0;
  } catch (error) {
    print(`could not reach ${url}: ${error.message}`);
    return 2;
  }
  print(failures ? `${failures} check(s) failed` : "OK: the endpoint speaks protocol v1");
  return failures ? 1 : 0;
}

export async function main(argv = process.argv.slice(2), env = process.env) {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { secret: { type: "string" }, "deadline-ms": { type: "string", default: "2000" } },
    }));
  } catch (error) {
    console.error(`check: ${error.message}`);
    return 2;
  }
  const secret = values.secret || env[SECRET_ENV] || "";
  const deadlineMs = Number(values["deadline-ms"]);
  if (positionals.length !== 1 || !secret || !Number.isInteger(deadlineMs) || deadlineMs < 1) {
    console.error(`usage: node src/check.js URL [--secret S (default: $${SECRET_ENV})] [--deadline-ms 2000]`);
    return 2;
  }
  return check(positionals[0], secret, { deadlineMs });
}

if (isMain(import.meta.url)) {
  process.exitCode = await main();
}
