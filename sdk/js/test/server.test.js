// src/server.js over real loopback HTTP: signatures, replies, limits, deadlines.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";

import { listen } from "../src/run.js";
import { MissingSecret, createBotServer } from "../src/server.js";
import { signHeaders } from "../src/signing.js";
import { GAME, VECTORS, actRequest, request, signedPost, startBot } from "../testing/http.js";
import { haveSchemas, validate } from "../testing/schema.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function protocolMessage(body) {
  try {
    const message = JSON.parse(body);
    return message && typeof message === "object" && "request_id" in message ? message : null;
  } catch {
    return null;
  }
}

/** One case through a fresh bot (fresh replay memory) whose clock reads `now`. */
async function exchange(vector, now) {
  const bot = await startBot({ act: () => 0 }, { secret: vector.secret, clock: () => now });
  try {
    const headers = { "Content-Type": "application/json", ...vector.headers };
    return { reply: await request(bot.url, { body: vector.body, headers }), log: bot.log.lines };
  } finally {
    await bot.close();
  }
}

function assertAccepted(vector, reply) {
  const message = protocolMessage(vector.body);
  if (message === null) {
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error, "bad_request");
  } else {
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.request_id, message.request_id);
  }
}

describe("every verification vector over HTTP", () => {
  for (const vector of VECTORS.verification) {
    test(`${vector.name} -> ${vector.expected}`, async () => {
      const { reply, log } = await exchange(vector, vector.now);
      if (vector.expected === "ok") {
        assertAccepted(vector, reply);
      } else {
        assert.equal(reply.status, 401, reply.text);
        assert.equal(reply.json.error, vector.expected);
        assert.ok(reply.json.detail);
        assert.match(log.join("\n"), /refused a request/);
      }
    });
  }
});

describe("every signing vector is accepted when fresh", () => {
  for (const vector of VECTORS.signing) {
    test(vector.name, async () => assertAccepted(vector, (await exchange(vector, vector.timestamp)).reply));
  }
});

describe("a running bot", () => {
  const calls = { start: [], finish: [] };
  let bot;
  before(async () => {
    bot = await startBot({
      act: (turn) => turn.legalActions.length - 1,
      start: (message) => calls.start.push(message.request_id),
      finish: (message) => calls.finish.push(message.request_id),
    });
  });
  after(() => bot.close());

  test("answers a signed act with a legal index that fits the act-reply schema", async () => {
    const message = actRequest();
    const reply = await signedPost(bot.url, message);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers["content-type"], "application/json");
    assert.deepEqual(reply.json, { request_id: message.request_id, action_index: 2 });
    if (haveSchemas) assert.deepEqual(validate("act-reply", reply.json), []);
  });

  test("answers ping with its name, version and protocol (ping-reply schema)", async () => {
    const reply = await signedPost(bot.url, { protocol: 1, kind: "ping", request_id: "p-1" });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { request_id: "p-1", name: "test-bot", version: "0.1", protocol: 1 });
    if (haveSchemas) assert.deepEqual(validate("ping-reply", reply.json), []);
  });

  test("the schema check itself refuses a wrong reply", { skip: !haveSchemas && "no botapi/schemas" }, () => {
    assert.notDeepEqual(validate("ping-reply", { request_id: "p", name: "", version: 1 }), []);
    assert.notDeepEqual(
      validate("act-reply", { request_id: "a", action_index: 1, action: { type: "x" } }),
      [],
    );
    assert.notDeepEqual(validate("act-reply", { request_id: "a", action_index: -1 }), []);
  });

  test("acknowledges start and finish and calls the handler", async () => {
    for (const kind of ["start", "finish"]) {
      const message = { protocol: 1, kind, request_id: `${kind}-1`, game: GAME, players: ["a", "b", "c"] };
      if (kind === "finish") message.outcome = { scores: [3, 2, 1], ranks: [1, 2, 3] };
      const reply = await signedPost(bot.url, message);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.json, { request_id: `${kind}-1`, ok: true });
    }
    assert.deepEqual(calls, { start: ["start-1"], finish: ["finish-1"] });
  });

  test("refuses a forged request (wrong secret) and never calls the handler", async () => {
    const reply = await signedPost(bot.url, actRequest(), { secret: "not-the-secret" });
    assert.equal(reply.status, 401);
    assert.equal(reply.json.error, "bad_signature");
  });

  test("refuses a stale request", async () => {
    const reply = await signedPost(bot.url, actRequest(), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    assert.equal(reply.status, 401);
    assert.equal(reply.json.error, "stale_timestamp");
  });

  test("refuses an unsigned request", async () => {
    const reply = await request(bot.url, { body: JSON.stringify(actRequest()) });
    assert.equal(reply.status, 401);
    assert.equal(reply.json.error, "missing_signature");
  });

  test("refuses a replay of a request it has taken", async () => {
    const body = JSON.stringify(actRequest());
    const headers = signHeaders("test-secret", body);
    assert.equal((await request(bot.url, { body, headers })).status, 200);
    const again = await request(bot.url, { body, headers });
    assert.equal(again.status, 401);
    assert.equal(again.json.error, "replayed_request");
  });

  test("a signed body that is not JSON, or not a message, is a 400", async () => {
    for (const raw of ["{not json", "[1,2]", '"ping"', "null", '{"kind":"ping"}', "\xff"]) {
      const reply = await signedPost(bot.url, null, { raw: raw === "\xff" ? Buffer.from([0xff]) : raw });
      assert.equal(reply.status, 400, raw);
      assert.equal(reply.json.error, "bad_request");
    }
  });

  test("an unknown kind is a 400", async () => {
    const reply = await signedPost(bot.url, { protocol: 1, kind: "dance", request_id: "d" });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error, "unknown_kind");
  });

  test("other methods get 405 with a JSON error", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const reply = await request(bot.url, { method });
      assert.equal(reply.status, 405, method);
      assert.equal(reply.headers.allow, "POST");
      assert.equal(reply.json.error, "method_not_allowed");
    }
  });

  test("any path is served, like the Python SDK (a proxy may rewrite it)", async () => {
    const message = { protocol: 1, kind: "ping", request_id: "path" };
    const body = JSON.stringify(message);
    const reply = await request(`${bot.url}bots/mine?x=1`, {
      body,
      headers: signHeaders("test-secret", body),
    });
    assert.equal(reply.status, 200);
  });

  test("a body without Content-Length is 411, one over the limit 413", async () => {
    const chunked = await request(bot.url, { body: "{}", chunked: true });
    assert.equal(chunked.status, 411);
    const limited = await startBot({ act: () => 0 }, { maxBodyBytes: 10 });
    try {
      const big = await request(limited.url, { body: "x".repeat(11) });
      assert.equal(big.status, 413);
      assert.equal(big.json.error, "too_large");
    } finally {
      await limited.close();
    }
  });
});

describe("what act returns", () => {
  async function answer(act, overrides = {}) {
    const bot = await startBot({ act });
    try {
      const message = actRequest(overrides);
      return { message, reply: await signedPost(bot.url, message), log: bot.log.lines };
    } finally {
      await bot.close();
    }
  }

  test("an action object is sent as action", async () => {
    const { reply } = await answer((turn) => turn.legalActions[1]);
    assert.deepEqual(reply.json.action, { type: "bid", amount: 2 });
    assert.equal("action_index" in reply.json, false);
  });

  test("a plain function works as the handler, and may be async", async () => {
    const { reply } = await answer(async () => 1);
    assert.equal(reply.json.action_index, 1);
  });

  test("an index out of range, a wrong type or an exception is a 500 with the reason", async () => {
    for (const [act, pattern] of [
      [() => 3, /index 3; there are 3/],
      [() => "bid", /act must return/],
      [() => true, /act must return/],
      [
        () => {
          throw new Error("boom");
        },
        /Error: boom/,
      ],
    ]) {
      const { reply } = await answer(act);
      assert.equal(reply.status, 500);
      assert.equal(reply.json.error, "handler_failed");
      assert.match(reply.json.detail, pattern);
    }
  });

  test("a slow act is answered with the server's default action before the deadline", async () => {
    // The default (a pass) is last here: the first action, a raise, is what issue #32 forbids.
    const legal = [{ type: "bid", amount: 2 }, { type: "bid", amount: 3 }, { type: "pass" }];
    const { reply, log } = await answer(() => sleep(3000).then(() => 0), {
      deadline_ms: 400,
      legal_actions: legal,
      default_action_index: 2,
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.action_index, 2);
    assert.match(reply.json.note, /default/);
    assert.ok(reply.ms < 400, `answered after ${reply.ms} ms`);
    assert.ok(reply.ms >= 300, `answered after only ${reply.ms} ms (budget 320)`);
    assert.match(log.join("\n"), /longer than 320 ms/);
  });

  test("a slow act for an older server without default_action_index is answered with the first action", async () => {
    const { reply } = await answer(() => sleep(3000).then(() => 2), {
      deadline_ms: 200,
      default_action_index: undefined,
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.action_index, 0);
  });

  test("turn.defaultActionIndex is the request's default", async () => {
    let seen;
    await answer((turn) => {
      seen = turn.defaultActionIndex;
      return 0;
    }, { default_action_index: 2 });
    assert.equal(seen, 2);
  });

  test("an out-of-range default_action_index falls back to the first action", async () => {
    const { reply } = await answer(() => sleep(3000).then(() => 2), {
      deadline_ms: 200,
      default_action_index: 3,
    });
    assert.equal(reply.json.action_index, 0);
  });

  test("turn.timeLeftMs() counts down from the budget", async () => {
    let left;
    await answer(
      (turn) => {
        left = turn.timeLeftMs();
        return 0;
      },
      { deadline_ms: 1000 },
    );
    assert.ok(left > 700 && left <= 850, String(left));
  });
});

test("a body cut off before its Content-Length is logged as such", async () => {
  const bot = await startBot({ act: () => 0 });
  try {
    await new Promise((resolve, reject) => {
      const socket = net.connect(bot.port, "127.0.0.1", () => {
        socket.end('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"kind":');
      });
      socket.on("error", reject);
      socket.on("close", resolve);
      socket.resume();
    });
    for (let i = 0; i < 50 && bot.log.lines.length === 0; i++) await sleep(10);
    assert.match(bot.log.lines.join("\n"), /request body cut off \(got 8 of 100 bytes\)/);
  } finally {
    await bot.close();
  }
});

test("without a secret there is no server", () => {
  assert.throws(() => createBotServer({ act: () => 0 }, {}), MissingSecret);
  assert.throws(() => createBotServer({}, { secret: "s" }), /act\(turn\)/);
});

test("a port in use is one clear error", async () => {
  const first = await startBot({ act: () => 0 });
  try {
    const second = createBotServer({ act: () => 0 }, { secret: "s" });
    await assert.rejects(listen(second, { host: "127.0.0.1", port: first.port }), {
      name: "PortInUse",
      message: `cannot listen on 127.0.0.1:${first.port}: port in use (stop what listens there, or choose another port; 0 picks a free one)`,
    });
  } finally {
    await first.close();
  }
});
