#!/usr/bin/env node
/**
 * A bot that plays a uniformly random legal action, in any Harbormaster game.
 *
 *     HARBORMASTER_SECRET=your-secret node bots/random.js [--port 8001] [--seed 7] [--name my-bot]
 *
 * It never looks at the view: every request lists the legal actions, so
 * choosing among them by index works in all four games. Start from here (or
 * from the README's my-bot.js) and make `act` smarter.
 */
import { createHash, randomInt } from "node:crypto";

import { isMain, main } from "../src/run.js";

/**
 * Numbers in [0, 1) from a seed, so that `--seed` makes games reproducible:
 * SHA-256 of "seed:counter", 48 bits of it. Slow for a search, ample for this bot.
 */
export function seededRandom(seed) {
  let counter = 0;
  return () => createHash("sha256").update(`${seed}:${counter++}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

export class RandomBot {
  /** `seed` (any string or number) for reproducible choices; without it, crypto-random ones. */
  constructor(seed = undefined) {
    const random = seed === undefined ? null : seededRandom(seed);
    this.pick = random ? (count) => Math.floor(random() * count) : (count) => randomInt(count);
  }

  /** Return an index into turn.legalActions (or one of those action objects). */
  act(turn) {
    return this.pick(turn.legalActions.length);
  }

  start(request) {
    const { id, engine, seat } = request.game;
    console.log(`game ${id} of ${engine} begins; I am seat ${seat}`);
  }

  finish(request) {
    const { id, seat } = request.game;
    console.log(`game ${id} over; my rank: ${request.outcome.ranks[seat]}`);
  }
}

if (isMain(import.meta.url)) {
  await main((args) => new RandomBot(args.seed), {
    extra: { seed: { type: "string" } },
    defaults: { name: "random-js", version: "1" },
  });
}
