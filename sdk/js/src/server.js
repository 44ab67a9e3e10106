/**
 * A bot endpoint: `createBotServer(handler, { secret, name, version })`
 * returns a `node:http` server that speaks bot protocol v1 like the Python
 * SDK's `serve`:
 *
 * - checks every request's signature and timestamp and refuses one it has
 *   already taken (401 with a JSON error), so only Harbormaster makes the
 *   bot move, once per request;
 * - says so when a body was cut off before its Content-Length, instead of
 *   calling it a bad signature;
 * - routes `act` to `handler.act(turn)` (or `handler(turn)` for a plain
 *   function), `start`/`finish` to the optional `handler.start(request)` /
 *   `handler.finish(request)`, and answers `ping` itself;
 * - answers `act` before the deadline: if `act` (sync or async) has not
 *   settled shortly before it, the server answers the request's
 *   `default_action_index` (what the referee plays for a silent seat:
 *   passing where legal, never a raise; the first legal action only for an
 *   older server that sends none) so the bot is not faulted. JavaScript cannot interrupt synchronous code: a
 *   long synchronous search must watch `turn.timeLeftMs()` itself.
 *
 * Like the Python SDK it answers on any path (the registered URL may carry
 * one that a proxy rewrites) and only to POST.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

import { DEFAULT_CAPACITY, ReplayMemory } from "./replay.js";
import { SignatureError, TOLERANCE_SECONDS, computeSignature, verifySignature } from "./signing.js";
import { Turn, answerBudgetMs, asReply, fallbackIndex } from "./turn.js";

export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
export const SECRET_ENV = "HARBORMASTER_SECRET";
const TOO_SLOW = Symbol("too slow");
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** No signing secret was given: the bot could not tell the referee from anyone else. */
export class MissingSecret extends Error {
  constructor() {
    super(
      `a signing secret is required: pass --secret or set ${SECRET_ENV} ` +
        "(Harbormaster shows it once when you register the bot)",
    );
    this.name = "MissingSecret";
  }
}

/** The request body ended before its Content-Length (e.g. the sender died). */
class BodyCutOff extends Error {
  constructor(received, expected, why) {
    super(`request body cut off (got ${received} of ${expected} bytes): ${why}`);
  }
}

/** A reply to send: status and JSON payload. */
class Reply {
  constructor(status, payload, { close = false } = {}) {
    this.status = status;
    this.payload = payload;
    this.close = close;
  }
}

const refusal = (status, error, detail, options) => new Reply(status, { error, detail }, options);

function routesOf(handler) {
  const act =
    typeof handler?.act === "function"
      ? handler.act.bind(handler)
      : typeof handler === "function"
        ? handler
        : null;
  if (act === null) throw new TypeError("the handler needs an act(turn) method, or must be a function");
  const optional = (method) => (typeof handler[method] === "function" ? handler[method].bind(handler) : null);
  return { act, start: optional("start"), finish: optional("finish") };
}

function readBody(request, length) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let received = 0;
    request.on("data", (chunk) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    request.on("end", () => {
      if (received < length)
        reject(new BodyCutOff(received, length, "the sender closed the connection before the end"));
      else resolve(Buffer.concat(chunks));
    });
    request.on("error", (error) =>
      reject(new BodyCutOff(received, length, `connection failed: ${error.message}`)),
    );
    request.on("close", () =>
      reject(new BodyCutOff(received, length, "the sender closed the connection before the end")),
    );
  });
}

/** Header values as the Python SDK sees them: the first of each name. */
function firstValues(request) {
  return Object.fromEntries(
    Object.entries(request.headersDistinct).map(([name, values]) => [name, values[0]]),
  );
}

/**
 * The bot's HTTP server (not yet listening: call `.listen()`, or use `listen` from run.js).
 *
 * Options: `secret` (required), `name`, `version` (ping reply), `tolerance`
 * (seconds), `replayCapacity`, `maxBodyBytes`, `log` (an object with `warn`
 * and `error`, default `console`), and `clock` (Unix seconds, for tests).
 */
export function createBotServer(handler, options = {}) {
  const {
    secret,
    name = "bot",
    version = "1",
    tolerance = TOLERANCE_SECONDS,
    replayCapacity = DEFAULT_CAPACITY,
    maxBodyBytes = MAX_REQUEST_BYTES,
    log = console,
    clock = () => Date.now() / 1000,
  } = options;
  if (!secret) throw new MissingSecret();
  const routes = routesOf(handler);
  const seen = new ReplayMemory(replayCapacity, { warn: (message) => log.warn(message) });

  function authenticate(body, headers) {
    const now = clock();
    const timestamp = verifySignature(secret, body, headers, { now, tolerance });
    // Keyed on the signature under our secret, unique to (timestamp, body), and only once verified.
    const key = computeSignature(secret, timestamp, body);
    if (!seen.firstTime(key, timestamp + tolerance, now)) {
      throw new SignatureError(
        "replayed_request",
        `this exact signed request (timestamp ${timestamp}) was already taken; ` +
          "every request the referee sends is new, so this is a replay",
      );
    }
  }

  async function decide(request) {
    const deadline = Number(request.deadline_ms ?? 1000);
    const budget = answerBudgetMs(Number.isFinite(deadline) ? deadline : 1000);
    const turn = new Turn(request, performance.now() + budget);
    let timer;
    const tooSlow = new Promise((resolve) => {
      timer = setTimeout(resolve, Math.max(0, turn.answerBy - performance.now()), TOO_SLOW);
    });
    let choice;
    try {
      choice = await Promise.race([Promise.resolve().then(() => routes.act(turn)), tooSlow]);
    } finally {
      clearTimeout(timer);
    }
    if (choice === TOO_SLOW) {
      const index = fallbackIndex(request);
      log.warn(`act took longer than ${budget} ms at ply ${request.ply}; answered the default action (index ${index})`);
      return { action_index: index, note: "handler too slow; SDK answered the default" };
    }
    if (turn.timeLeftMs() === 0) {
      log.warn(
        `act returned after its ${budget} ms at ply ${request.ply} (synchronous code cannot be interrupted)`,
      );
    }
    return asReply(choice, turn.legalActions.length);
  }

  async function route(kind, requestId, request) {
    if (kind === "ping") return new Reply(200, { request_id: requestId, name, version, protocol: 1 });
    if (kind === "act") return new Reply(200, { request_id: requestId, ...(await decide(request)) });
    if (kind === "start" || kind === "finish") {
      await routes[kind]?.(request);
      return new Reply(200, { request_id: requestId, ok: true });
    }
    return refusal(400, "unknown_kind", `unknown message kind ${JSON.stringify(kind)}`);
  }

  async function answer(request) {
    if (request.method !== "POST") {
      return refusal(
        405,
        "method_not_allowed",
        `this is the Harbormaster bot '${name}'; the referee POSTs signed JSON here`,
      );
    }
    const lengthText = request.headers["content-length"];
    if (lengthText === undefined || !/^[0-9]+$/.test(lengthText)) {
      return refusal(411, "length_required", "send a Content-Length", { close: true });
    }
    const length = Number(lengthText);
    if (length > maxBodyBytes)
      return refusal(413, "too_large", `at most ${maxBodyBytes} bytes`, { close: true });
    let body;
    try {
      body = await readBody(request, length);
    } catch (error) {
      log.warn(`refused a request: ${error.message}`);
      return refusal(400, "incomplete_body", error.message, { close: true });
    }
    try {
      authenticate(body, firstValues(request));
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      log.warn(`refused a request: ${error.message}`);
      return refusal(401, error.code, error.message);
    }
    let message;
    try {
      message = JSON.parse(UTF8.decode(body));
      if (message === null || typeof message !== "object" || Array.isArray(message))
        throw new TypeError("not a JSON object");
      for (const field of ["kind", "request_id"])
        if (!(field in message)) throw new TypeError(`no ${JSON.stringify(field)}`);
    } catch (error) {
      return refusal(400, "bad_request", `not a protocol message: ${error.message}`);
    }
    try {
      return await route(message.kind, message.request_id, message);
    } catch (error) {
      log.error(`the bot's ${message.kind} handler failed:`, error);
      return refusal(500, "handler_failed", `${error?.name ?? "Error"}: ${error?.message ?? error}`);
    }
  }

  const server = http.createServer({ noDelay: true }, (request, response) => {
    answer(request)
      .catch((error) => {
        log.error("the bot server failed:", error);
        return refusal(500, "server_error", String(error?.message ?? error));
      })
      .then((reply) => send(response, reply));
  });
  // Outlive the referee's pooled connections (its client keeps them 5 s): a connection
  // the server closes just as the referee reuses it would cost the bot a fault.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

function send(response, reply) {
  if (response.destroyed || response.writableEnded) return;
  const data = Buffer.from(JSON.stringify(reply.payload), "utf8");
  const headers = { "Content-Type": "application/json", "Content-Length": data.length };
  if (reply.close) headers.Connection = "close";
  if (reply.status === 405) headers.Allow = "POST";
  try {
    response.writeHead(reply.status, headers);
    response.end(data);
  } catch {
    // the connection is gone; the log already says why
  }
}
