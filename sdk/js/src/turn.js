/**
 * One `act` request as the bot's `act(turn)` sees it, the time it may
 * think, and what its answer becomes (as the Python SDK's `Turn`).
 */
import { performance } from "node:perf_hooks";

/** How long `act` may think: the deadline minus a margin for the network (a fifth, 20 to 150 ms). */
export function answerBudgetMs(deadlineMs) {
  const deadline = Math.trunc(deadlineMs);
  const margin = Math.min(150, Math.max(20, Math.floor(deadline / 5)));
  return Math.max(1, deadline - margin);
}

export class Turn {
  /**
   * @param {object} request the act request, as received
   * @param {number} answerBy `performance.now()` value by which the server answers
   */
  constructor(request, answerBy) {
    this.request = request;
    this.answerBy = answerBy;
  }

  get game() {
    return this.request.game;
  }

  get seat() {
    return this.request.game.seat;
  }

  get ply() {
    return this.request.ply;
  }

  get view() {
    return this.request.view;
  }

  /** The actions you may play now, each an object with a "type". */
  get legalActions() {
    return this.request.legal_actions;
  }

  get events() {
    return this.request.events;
  }

  /** Index in legalActions of what the referee plays if you do not answer (passing where legal). */
  get defaultActionIndex() {
    return fallbackIndex(this.request);
  }

  /** Milliseconds before the server answers for you; search while this is above zero. */
  timeLeftMs() {
    return Math.max(0, this.answerBy - performance.now());
  }
}

/**
 * The index the kit answers for an `act` that is too slow: the request's
 * `default_action_index`, the action the referee itself plays for a silent
 * seat (the engine's safe default: passing where legal; the first legal
 * action can be a costly raise). Only a request without a usable one (an
 * older server) gets the first legal action.
 */
export function fallbackIndex(request) {
  const index = request.default_action_index;
  const count = Array.isArray(request.legal_actions) ? request.legal_actions.length : 0;
  return Number.isInteger(index) && index >= 0 && index < count ? index : 0;
}

/** The reply fields for what `act` returned: an index into legal_actions, or one of them. */
export function asReply(choice, count) {
  if (typeof choice === "number" && Number.isInteger(choice)) {
    if (choice < 0 || choice >= count) {
      throw new RangeError(`act returned index ${choice}; there are ${count} legal actions`);
    }
    return { action_index: choice };
  }
  if (
    choice !== null &&
    typeof choice === "object" &&
    !Array.isArray(choice) &&
    typeof choice.type === "string"
  ) {
    return { action: choice };
  }
  throw new TypeError(
    `act must return an index into turn.legalActions or an action object, not ${JSON.stringify(choice)}`,
  );
}
