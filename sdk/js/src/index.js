/** The Harbormaster JavaScript bot kit: everything a bot needs, from one import. */
export * from "./signing.js";
export { DEFAULT_CAPACITY, ReplayMemory } from "./replay.js";
export { MAX_REQUEST_BYTES, MissingSecret, SECRET_ENV, createBotServer } from "./server.js";
export { DEFAULT_PORT, PortInUse, UsageError, isMain, listen, main, parseBotArgs, runBot } from "./run.js";
export { Turn, answerBudgetMs, asReply } from "./turn.js";
