#!/usr/bin/env node
/**
 * A bot that plays a uniformly random legal action, in any Harbormaster game.
 *
 *     HARBORMASTER_SECRET=your-secret node bots/random.js [--port 8001] [--seed 7] [--name my-bot]
 *
 * It never looks at the view: every request lists the legal actions, so
 * choosing among them by index works in all four games. Copy this file and
 * make `act` smarter.
 */
import { randomInt } from "node:crypto";

import { isMain, main } from "../src/run.js";

/** A small seeded generator (mulberry32) so that `--seed` makes games reproducible. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RandomBot {
  /** `seed` (an integer) for reproducible choices; without it, crypto-random ones. */
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
  await main((args) => new RandomBot(args.seed === undefined ? undefined : Number.parseInt(args.seed, 10)), {
    extra: { seed: { type: "string" } },
    defaults: { name: "random-js", version: "1" },
  });
}
