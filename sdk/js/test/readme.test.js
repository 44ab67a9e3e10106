// The README's my-bot.js and its unit test, taken from the README itself (so they cannot drift),
// installed the way the README says (a link to this folder as node_modules/harbormaster-bot).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";

import { check } from "../src/check.js";

const KIT = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(path.join(KIT, "README.md"), "utf8");

function codeAfter(marker) {
  const rest = README.split(marker)[1];
  assert.ok(rest, `the README lost ${JSON.stringify(marker)}`);
  return rest.match(/```js\n([\s\S]*?)```/)[1];
}

let project;
before(() => {
  project = mkdtempSync(path.join(tmpdir(), "my-bot-"));
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-bot", type: "module" }));
  mkdirSync(path.join(project, "node_modules"));
  symlinkSync(KIT, path.join(project, "node_modules", "harbormaster-bot"), "dir");
  writeFileSync(path.join(project, "my-bot.js"), codeAfter("Create `my-bot.js`:"));
  writeFileSync(path.join(project, "my-bot.test.js"), codeAfter("test it without a server"));
});
after(() => rmSync(project, { recursive: true, force: true }));

test("the README's unit test passes", async () => {
  const { NODE_TEST_CONTEXT, ...env } = process.env; // run as its own test run, reporting as text
  const child = spawn(process.execPath, ["--test", "--test-reporter=tap", "my-bot.test.js"], {
    cwd: project,
    env,
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const [code] = await once(child, "close");
  assert.equal(code, 0, output);
  assert.match(output, /# pass 1/);
});

test("the README's bot runs and passes the checker", async () => {
  const child = spawn(process.execPath, ["my-bot.js", "--port", "0"], {
    cwd: project,
    env: { ...process.env, HARBORMASTER_SECRET: "readme" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    for (let i = 0; i < 200 && !output.includes("listening"); i++)
      await new Promise((r) => setTimeout(r, 25));
    const url = output.match(/bot 'my-bot' v0\.1 listening on (\S+)/)?.[1];
    assert.ok(url, output);
    const lines = [];
    assert.equal(await check(url, "readme", { print: (line) => lines.push(line) }), 0, lines.join("\n"));
    assert.match(lines.join("\n"), /"action":\{"type":"bid","amount":2\}/, "the highest bid of the sample");
  } finally {
    child.kill("SIGTERM");
  }
});
