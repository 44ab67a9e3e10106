// src/replay.js: remembered until expiry, bounded, the oldest forgotten first (with a warning).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ReplayMemory } from "../src/replay.js";

test("a key is taken once until it expires, inclusive", () => {
  const memory = new ReplayMemory(10, { warn: () => assert.fail("no warning expected") });
  assert.equal(memory.firstTime("a", 100, 0), true);
  assert.equal(memory.firstTime("a", 100, 100), false, "still remembered at its expiry");
  assert.equal(memory.firstTime("a", 500, 100.5), true, "forgotten after it");
  assert.equal(memory.size, 1);
});

test("when full, the oldest is forgotten and the first time is warned about", () => {
  const warnings = [];
  const memory = new ReplayMemory(2, { warn: (message) => warnings.push(message) });
  for (const key of ["a", "b", "c"]) assert.equal(memory.firstTime(key, 1000, 0), true);
  assert.equal(memory.size, 2);
  assert.equal(memory.forgottenEarly, 1);
  assert.match(warnings[0], /replay memory full \(2 requests/);
  assert.equal(memory.firstTime("a", 1000, 0), true, "a was forgotten to make room");
  assert.equal(memory.firstTime("c", 1000, 0), false);
});

test("a memory needs room", () => {
  assert.throws(() => new ReplayMemory(0), RangeError);
});
