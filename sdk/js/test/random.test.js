// bots/random.js: the choice, and the program as an author runs it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { RandomBot, seededRandom } from "../bots/random.js";
import { Turn } from "../src/turn.js";
import { actRequest, signedPost } from "../testing/http.js";

const BOT = fileURLToPath(new URL("../bots/random.js", import.meta.url));

function turnWith(count) {
  const legal = Array.from({ length: count }, (_, amount) => ({ type: "bid", amount }));
  return new Turn(actRequest({ legal_actions: legal }), Infinity);
}

test("it picks every legal index, about uniformly, and nothing else", () => {
  for (const bot of [new RandomBot(), new RandomBot(7)]) {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[bot.act(turnWith(4))] += 1;
    assert.equal(
      counts.reduce((a, b) => a + b),
      4000,
    );
    for (const count of counts) assert.ok(count > 850 && count < 1150, String(counts));
    assert.equal(bot.act(turnWith(1)), 0);
  }
});

test("a seed makes it reproducible", () => {
  const picks = (bot) => Array.from({ length: 20 }, () => bot.act(turnWith(10)));
  assert.deepEqual(picks(new RandomBot(42)), picks(new RandomBot(42)));
  assert.notDeepEqual(picks(new RandomBot(42)), picks(new RandomBot(43)));
  const random = seededRandom(1);
  for (let i = 0; i < 1000; i++) {
    const value = random();
    assert.ok(value >= 0 && value < 1);
  }
});

/** Run bots/random.js; resolves once it printed its first line. */
async function launch(args, env) {
  const child = spawn(process.execPath, [BOT, ...args], {
    env: { ...process.env, HARBORMASTER_SECRET: "", PORT: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = once(child, "exit");
  for (let i = 0; i < 200 && !output.includes("\n") && child.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child, exited, output: () => output };
}

test("the program listens where it is told, answers as named and stops on SIGTERM", async () => {
  const bot = await launch(["--port", "0", "--name", "my-js-bot", "--version", "2.5"], {
    HARBORMASTER_SECRET: "cli",
  });
  try {
    const url = bot.output().match(/listening on (http:\S+)/)?.[1];
    assert.ok(url, bot.output());
    assert.match(bot.output(), /^bot 'my-js-bot' v2\.5 listening on http:\/\/127\.0\.0\.1:\d+\/\n$/);
    const ping = await signedPost(url, { protocol: 1, kind: "ping", request_id: "cli" }, { secret: "cli" });
    assert.deepEqual(ping.json, { request_id: "cli", name: "my-js-bot", version: "2.5", protocol: 1 });
    const act = await signedPost(url, actRequest(), { secret: "cli" });
    assert.ok([0, 1, 2].includes(act.json.action_index), act.text);
  } finally {
    bot.child.kill("SIGTERM");
  }
  const [code] = await bot.exited;
  assert.equal(code, 0);
});

test("the port can come from $PORT", async () => {
  const first = await launch(["--port", "0"], { HARBORMASTER_SECRET: "s" });
  const port = first.output().match(/:(\d+)\//)[1];
  first.child.kill("SIGTERM");
  await first.exited;
  const bot = await launch([], { HARBORMASTER_SECRET: "s", PORT: port });
  try {
    assert.match(bot.output(), new RegExp(`listening on http://127.0.0.1:${port}/`));
  } finally {
    bot.child.kill("SIGTERM");
    await bot.exited;
  }
});

test("a port in use, a missing secret or a bad option is one line and status 1", async () => {
  const running = await launch(["--port", "0"], { HARBORMASTER_SECRET: "s" });
  const port = running.output().match(/:(\d+)\//)[1];
  try {
    const cases = [
      [
        ["--port", port],
        { HARBORMASTER_SECRET: "s" },
        `bot 'random-js': cannot listen on 127.0.0.1:${port}: port in use`,
      ],
      [["--port", "0"], {}, "bot 'random-js': a signing secret is required"],
      [["--port", "http"], { HARBORMASTER_SECRET: "s" }, "bot 'random-js': the port must be a whole number"],
      [["--colour", "red"], { HARBORMASTER_SECRET: "s" }, "bot 'random-js': Unknown option '--colour'"],
    ];
    for (const [args, env, start] of cases) {
      const failed = await launch(args, env);
      const [code] = await failed.exited;
      assert.equal(code, 1, failed.output());
      assert.ok(failed.output().startsWith(start), failed.output());
      assert.equal(failed.output().trim().split("\n").length, 1, failed.output());
    }
  } finally {
    running.child.kill("SIGTERM");
    await running.exited;
  }
});
