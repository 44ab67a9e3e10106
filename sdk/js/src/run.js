/**
 * Running a bot from the command line: options, listening, one-line errors.
 *
 *     HARBORMASTER_SECRET=... node my-bot.js [--port 8001] [--host 127.0.0.1] [--name my-bot]
 *
 * The port comes from `--port`, else `$PORT`, else 8001 (next to `make
 * demo`'s 8000); 0 picks a free one. A port in use or a missing secret ends
 * the program with one line saying so and exit status 1, not a stack trace.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { MissingSecret, SECRET_ENV, createBotServer } from "./server.js";

export const DEFAULT_PORT = 8001;

/** The address is taken; the message says which and what to do. */
export class PortInUse extends Error {
  constructor(host, port) {
    super(
      `cannot listen on ${host}:${port}: port in use ` +
        "(stop what listens there, or choose another port; 0 picks a free one)",
    );
    this.name = "PortInUse";
  }
}

/** A bad command line; the message says what to change. */
export class UsageError extends Error {}

/**
 * Whether the module at `moduleUrl` is the program node was started with
 * (`node my-bot.js`), also through a symlink such as node_modules/.bin.
 */
export function isMain(moduleUrl) {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

export function urlOf(host, port) {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
}

/** Start listening; resolves with `{ host, port, url }` or rejects with PortInUse. */
export function listen(server, { host = "127.0.0.1", port = DEFAULT_PORT } = {}) {
  return new Promise((resolve, reject) => {
    const failed = (error) => reject(error.code === "EADDRINUSE" ? new PortInUse(host, port) : error);
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      const address = server.address();
      resolve({ host: address.address, port: address.port, url: urlOf(address.address, address.port) });
    });
  });
}

function parsePort(text) {
  if (!/^[0-9]+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`the port must be a whole number from 0 to 65535, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * The standard options (host, port, secret, name, version) plus a bot's own
 * (`extra`, in `util.parseArgs` form). Throws UsageError.
 */
export function parseBotArgs(argv, env = process.env, extra = {}, defaults = {}) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string" },
        secret: { type: "string" },
        name: { type: "string", default: defaults.name ?? "bot" },
        version: { type: "string", default: defaults.version ?? "1" },
        ...extra,
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error.message);
  }
  return {
    ...values,
    port: parsePort(values.port ?? env.PORT ?? String(DEFAULT_PORT)),
    secret: values.secret || env[SECRET_ENV] || "",
  };
}

/**
 * Serve `handler` until interrupted: prints `bot 'NAME' vVERSION listening
 * on URL`; on a usage error, a missing secret or a port in use, prints one
 * line to stderr and sets exit status 1. Resolves with the server (or null).
 */
export async function runBot(
  handler,
  { host, port, secret, name = "bot", version = "1", log = console } = {},
) {
  let server;
  try {
    server = createBotServer(handler, { secret, name, version, log });
    const where = await listen(server, { host, port });
    console.log(`bot '${name}' v${version} listening on ${where.url}`);
  } catch (error) {
    if (!(error instanceof PortInUse || error instanceof MissingSecret || error instanceof UsageError))
      throw error;
    console.error(`bot '${name}': ${error.message}`);
    process.exitCode = 1;
    server?.close();
    return null;
  }
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return server;
}

/** `parseBotArgs` then `runBot`, with the one-line error for a bad command line. */
export async function main(
  makeHandler,
  { argv = process.argv.slice(2), env = process.env, extra = {}, defaults = {} } = {},
) {
  let args;
  try {
    args = parseBotArgs(argv, env, extra, defaults);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bot '${defaults.name ?? "bot"}': ${error.message}`);
    process.exitCode = 1;
    return null;
  }
  return runBot(makeHandler(args), args);
}
