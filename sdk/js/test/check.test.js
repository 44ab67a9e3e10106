// src/check.js: the checker passes a good bot and names what is wrong with a bad one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { check, main, problemsWithActReply, problemsWithPingReply, sampleActRequest } from "../src/check.js";
import { startBot } from "../testing/http.js";

async function run(handler, secret = "test-secret", options = {}) {
  const bot = await startBot(handler, options);
  const lines = [];
  try {
    const status = await check(bot.url, secret, { print: (line) => lines.push(line) });
    return { status, output: lines.join("\n") };
  } finally {
    await bot.close();
  }
}

test("a good bot passes", async () => {
  const { status, output } = await run({ act: () => 1 });
  assert.equal(status, 0, output);
  assert.match(output, /OK: the endpoint speaks protocol v1/);
});

test("a wrong secret fails both checks", async () => {
  const { status, output } = await run({ act: () => 1 }, "wrong");
  assert.equal(status, 1);
  assert.match(output, /HTTP 401/);
  assert.match(output, /2 check\(s\) failed/);
});

test("an unreachable bot is status 2", async () => {
  const bot = await startBot({ act: () => 0 });
  await bot.close();
  const lines = [];
  assert.equal(await check(bot.url, "s", { print: (line) => lines.push(line) }), 2);
  assert.match(lines.join("\n"), /could not reach/);
});

test("reply problems are named", () => {
  const act = sampleActRequest(2000);
  const id = act.request_id;
  assert.deepEqual(problemsWithActReply({ request_id: id, action_index: 2 }, act), []);
  assert.deepEqual(problemsWithActReply({ request_id: id, action: { type: "bid", amount: 1 } }, act), []);
  assert.match(problemsWithActReply({ request_id: id, action_index: 3 }, act)[0], /not in 0..2/);
  assert.match(
    problemsWithActReply({ request_id: id, action: { type: "bid", amount: 9 } }, act)[0],
    /not among/,
  );
  assert.match(problemsWithActReply({ request_id: id }, act)[0], /exactly one/);
  assert.match(problemsWithActReply({ request_id: "x", action_index: 0 }, act)[0], /request_id/);
  const ping = { request_id: "p" };
  assert.deepEqual(
    problemsWithPingReply({ request_id: "p", name: "n", version: "1", protocol: 1 }, ping),
    [],
  );
  assert.match(problemsWithPingReply({ request_id: "p", name: "", version: "1" }, ping)[0], /name/);
});

test("the command line needs a URL and a secret", async () => {
  const errors = [];
  const original = console.error;
  console.error = (line) => errors.push(line);
  try {
    assert.equal(await main([], {}), 2);
    assert.equal(await main(["http://127.0.0.1:1/"], {}), 2);
  } finally {
    console.error = original;
  }
  assert.match(errors.join("\n"), /usage: node src\/check.js URL/);
});
