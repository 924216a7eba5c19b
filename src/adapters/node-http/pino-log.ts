import { pino, type Logger } from 'pino';
import type { RequestLogger } from '../request-log.js';
import type { LogDestination } from './log-destination.js';
import { turnBatchedLines } from './turn-batched-lines.js';

/** The levels DOCS_PLATFORM_LOG_LEVEL takes, most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options of createLogger(). */
export interface LoggerOptions {
  /** Default `info`. */
  level?: LogLevel;
  /** Lines for a person (pretty()) instead of JSON; the bundled server sets it when stdout is a TTY. */
  pretty?: boolean;
  /** Default stdout, its lines written once a turn of the event loop (turnBatchedLines). */
  destination?: LogDestination;
}

/** A pino logger writing one JSON line per entry (or readable lines with `pretty`). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const stdout = options.destination ?? turnBatchedLines(1);
  const destination = options.pretty ? pretty(stdout) : stdout;
  const logger = pino({ level: options.level ?? 'info', base: { pid: process.pid } }, destination);
  ownLoggers.add(logger);
  return logger;
}

/** The loggers createLogger() made: their options are known, so a request's line can come from a template. */
const ownLoggers = new WeakSet<Logger>();

/**
 * The pipeline's entries through pino: `{"msg":"request","requestId",...}` at info, and an unexpected
 * failure at error, its stack in `err`, with the request id. Entries never hold a token or a body.
 */
export function pinoRequestLogger(logger: Logger): RequestLogger {
  return {
    request: ownLoggers.has(logger) ? requestLines(logger) : (entry) => logger.info(entry, 'request'),
    failure: (requestId, method, route, error) => logger.error({ requestId, method, route, err: error }, 'request failed'),
  };
}

/**
 * Writes a request's entry to a logger of createLogger() as the very line `logger.info(entry, 'request')`
 * writes (test/http/request-logs.test.ts compares them), from a template of its known fields: pino's
 * serializer, which walks any object and escapes every key and string, cost ~1.5 µs a request.
 */
function requestLines(logger: Logger): RequestLogger['request'] {
  const stream = (logger as unknown as Record<symbol, LogDestination>)[pino.symbols.streamSym];
  const pid = process.pid;
  return (entry) => {
    if (!logger.isLevelEnabled('info')) return;
    const user = entry.userId === undefined ? '' : `,"userId":${JSON.stringify(entry.userId)}`;
    stream.write(
      `{"level":30,"time":${Date.now()},"pid":${pid},"requestId":${JSON.stringify(entry.requestId)},"method":${JSON.stringify(entry.method)},"route":${JSON.stringify(entry.route)},"status":${entry.status},"durationMs":${entry.durationMs},"bytes":${entry.bytes}${user},"msg":"request"}\n`,
    );
  };
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * Turns pino's JSON lines into lines for a terminal: `10:04:01.123 INFO  GET /v1/orgs/{organizationId} 200
 * 1.2ms 345B user=… req=…`, and a failure's stack below its line.
 */
export function pretty(out: LogDestination): LogDestination {
  return {
    write(line) {
      let entry: Record<string, any>;
      try {
        entry = JSON.parse(line);
      } catch {
        return out.write(line);
      }
      const time = new Date(entry.time).toISOString().slice(11, 23);
      const level = (LEVEL_NAMES[entry.level] ?? String(entry.level)).padEnd(5);
      let text: string;
      if (entry.msg === 'request') {
        const user = entry.userId ? ` user=${entry.userId}` : '';
        text = `${entry.method} ${entry.route ?? '(no route)'} ${entry.status} ${entry.durationMs}ms ${entry.bytes}B${user} req=${entry.requestId}`;
      } else {
        const request = entry.requestId ? ` req=${entry.requestId}` : '';
        text = `${entry.msg ?? ''}${request}${entry.err?.stack ? `\n${entry.err.stack}` : ''}`;
      }
      out.write(`${time} ${level} ${text}\n`);
    },
  };
}
