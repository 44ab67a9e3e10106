/**
 * The bot's memory of requests it has already taken, so none is taken twice
 * (as the Python SDK's `harbormaster_bot.replay`).
 *
 * A signature proves who sent a request and its timestamp bounds when, but
 * within the timestamp's window (5 minutes either way) an eavesdropper could
 * send a recorded request again. So the server remembers each verified
 * request's signature until its timestamp is too old to pass, and refuses a
 * second one. The referee never sends the same bytes twice (every request
 * has a fresh request_id). Only verified requests are remembered, so nobody
 * without the secret can add entries; when the memory is full the oldest is
 * forgotten (with a warning) rather than a genuine request refused.
 */

/** Requests remembered at most: far more than a bot is sent within the 10-minute window. */
export const DEFAULT_CAPACITY = 100_000;

export class ReplayMemory {
  constructor(capacity = DEFAULT_CAPACITY, { warn = (message) => console.warn(message) } = {}) {
    if (!(capacity >= 1)) throw new RangeError("the replay memory needs room for at least one request");
    this.capacity = capacity;
    this.forgottenEarly = 0;
    this.warn = warn;
    this.expiries = new Map(); // insertion order = arrival order
  }

  /**
   * Remember `key` until `expiresAt` (inclusive, Unix seconds); false if it is already remembered.
   */
  firstTime(key, expiresAt, now) {
    this.forgetExpired(now);
    if (this.expiries.has(key)) return false;
    if (this.expiries.size >= this.capacity) {
      this.expiries.delete(this.expiries.keys().next().value);
      this.forgottenEarly += 1;
      if (this.forgottenEarly === 1 || this.forgottenEarly % this.capacity === 0) {
        this.warn(
          `replay memory full (${this.capacity} requests within the timestamp window): ` +
            `forgot the oldest; ${this.forgottenEarly} forgotten early so far`,
        );
      }
    }
    this.expiries.set(key, expiresAt);
    return true;
  }

  /** Drop expired entries from the oldest on (arrival order follows the timestamps closely). */
  forgetExpired(now) {
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt >= now) return; // the timestamp check still passes at expiry itself
      this.expiries.delete(key);
    }
  }

  get size() {
    return this.expiries.size;
  }
}
