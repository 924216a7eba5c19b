#!/usr/bin/env node
/** The docs-platform command line: init, user create, token create|list|revoke, serve, mcp, backup, migrate, gc. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ClusterNeedsPostgresError, runCluster } from './cli/cluster.js';
import { runServer } from './cli/run-server.js';
import { serverEnvironment } from './cli/environment.js';
import { reportFatal } from './cli/fatal.js';
import { createPlatform } from './core/platform.js';
import { MEMBER_ROLES, type MemberRole } from './core/roles.js';
import { backupJsonFile } from './store/backup.js';
import { copyInstallation, describeCopy, TargetNotEmptyError } from './cli/copy-data.js';
import { collectData, CollectionBusyError, describeCollection } from './cli/collect-blobs.js';
import { isPostgresUrl, openData, shownData } from './cli/open-data.js';
import { runTokenCommand } from './cli/token-command.js';
import { StoreLockedError } from './store/lock-file.js';
import { McpCommandError, runMcpCommand } from './cli/mcp-command.js';

const DEFAULT_DATA = process.env.DOCS_PLATFORM_DATA || './data/docs-platform.json';
const LOCK_NOTE = `With a JSON data file, the server must not be running on it while a command writes to it: the
file is locked while in use (<data>.lock) and a command refuses to run while the server holds it. A
PostgreSQL database takes commands while servers run on it.`;

const USAGE = `Usage: docs-platform <command> [options]

Commands:
  init          Create an organization, its owner (role admin) and an API token
  user create   Add a user to an organization with a role and issue an API token
  token         Create, list or revoke a user's API tokens
  serve         Run the API server on a data file
  mcp           Serve the author tools (MCP) on stdin/stdout, for a local agent
  backup        Copy a data file or database into one JSON file, also while servers run
  migrate       Copy a whole installation between a JSON data file and PostgreSQL
  gc            Remove file bytes nothing references any more, and expired PDFs

Run "docs-platform <command> --help" for a command's options.`;

const HELP: Record<string, string> = {
  init: `Usage: docs-platform init [--data FILE] [--title T] [--email E] [--name N] [--json]

Creates an organization, its owner with the role admin, and an API token for the owner.

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}; created if missing), or a PostgreSQL
                URL (postgres://user@host:5432/db; the database, if the user may, and its
                tables are created if missing)
  --title T     The organization's title (default "My organization")
  --email E     The owner's e-mail; a user who has it becomes the owner. Default: a new user
                (owner-<id>@docs-platform.local), so every init makes a new owner
  --name N      The owner's display name (default "Owner")
  --json        Print one JSON line: {"organizationId", "userId", "token"}
  --help        Show this help

${LOCK_NOTE}`,
  'user create': `Usage: docs-platform user create --org ORG --email E --name N --role ROLE [--data FILE] [--json]

Makes a user a member of organization ORG with ROLE and issues a new API token for it.
A user with the same e-mail is the same person: it keeps its id and joins ORG too.

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL
  --org ORG     The organization id
  --email E     The user's e-mail address
  --name N      The user's display name (kept as it was for an existing user)
  --role ROLE   One of: ${MEMBER_ROLES.join(', ')}
  --json        Print one JSON line: {"userId", "token"}
  --help        Show this help

${LOCK_NOTE}`,
  token: `Usage: docs-platform token create --user USER [--label L] [--data FILE] [--json]
       docs-platform token list --user USER [--data FILE] [--json]
       docs-platform token revoke --user USER --id ID [--data FILE] [--json]

Manages the API tokens of user USER, as the user can through /v1/user/tokens. create issues a new
token and prints its secret once; list prints each token's id, creation and last use (to the minute),
and label, never a secret; revoke deletes one: it is refused at once, by every server on the data.

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL
  --user USER   The user's id
  --label L     The new token's label, 1 to 64 characters (default "API token")
  --id ID       The id of the token to revoke (from list)
  --json        Print one JSON line: the token (create; with "token", its secret), {"items","count"}
                (list), or {"revoked"} (revoke)
  --help        Show this help

${LOCK_NOTE}`,
  serve: `Usage: docs-platform serve [--data FILE] [--port N] [--host H] [--workers N]

Runs the API server. On a first start with an empty data file it creates an organization, its owner
and a token, and prints the token once. SIGTERM or SIGINT stops it gracefully.

Environment: DOCS_PLATFORM_BASE_URL (the public URL in answers; set it when other machines reach the
server), DOCS_PLATFORM_FETCH_ALLOW (what imports, files by URL and OpenAPI sources may fetch besides
the public internet: comma-separated IP addresses, CIDR ranges and host names), DOCS_PLATFORM_LOG_LEVEL
(the request logs, JSON lines on stdout: fatal, error, warn, info (default), debug, trace or silent),
DOCS_PLATFORM_METRICS=1 (/metrics on the API's port) or DOCS_PLATFORM_METRICS_PORT (/metrics alone on
that port), and DOCS_PLATFORM_RATE_LIMIT (units a minute per token and client address; default 0, no
limits; 600 for a server on the internet), DOCS_PLATFORM_TRUST_PROXY (the proxies whose X-Forwarded-For
gives the client address: IP addresses, CIDR ranges or loopback). /healthz and /readyz answer without a token.

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL
  --port N      The port (default 8080; 0 picks a free one)
  --host H      The interface (default 127.0.0.1)
  --workers N   Run N server processes on the port (node:cluster); PostgreSQL only
  --help        Show this help

While it runs, the server holds the data file's lock: CLI commands that write refuse to run.`,
  mcp: `Usage: docs-platform mcp --token T [--data FILE]
       docs-platform mcp --token T --url http://HOST:PORT

Serves the author server (MCP tools to find, read and edit content, review and merge change requests,
and publish sites) on stdin and stdout, for an agent that starts it as a local MCP server. The tools act
as the holder of token T, with its permissions. With --data they run in this process on the data (its
tool calls are logged as JSON lines on stderr); with --url every message goes to the running server's
/mcp. See docs/mcp.md.

Options:
  --token T     The API token (default: the DOCS_PLATFORM_TOKEN environment variable)
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL; a JSON file must not
                be in use by a server: use --url for a server that runs on it
  --url URL     The base URL of a running server (its /mcp is used), instead of --data
  --help        Show this help

Environment (with --data): DOCS_PLATFORM_BASE_URL, DOCS_PLATFORM_FETCH_ALLOW and DOCS_PLATFORM_LOG_LEVEL,
as for serve.`,
  migrate: `Usage: docs-platform migrate --from DATA --to DATA [--json]

Copies a whole installation, every record and the file bytes, from a JSON data file into a PostgreSQL
database (postgres://user@host:5432/db) or back. The source is read in one consistent state, also while
servers run on it; the target must be empty (refused otherwise). A target database that does not exist is
created when the URL's user may (CREATEDB); otherwise one line says how. Prints the record count of each
table on both sides, and exits 1 if any differs.

Options:
  --from DATA   The JSON data file or PostgreSQL URL to copy
  --to DATA     The empty JSON data file or PostgreSQL database to copy into
  --json        Print one JSON line: {"tables":[{"table","source","target"}],"blobs","complete"}
  --help        Show this help`,
  backup: `Usage: docs-platform backup --out DEST [--data FILE] [--json]

Copies the data file and its journal into one self-contained JSON file at DEST (written to a temporary
file, fsynced, renamed into place), and the file bytes in FILE.blobs/ to DEST.blobs/. It takes no lock and writes nothing beside the data file, so it runs
while the server serves: the copy holds every write acknowledged before the backup began.
To restore, stop the server, remove the data file's .journal.* files, and put DEST (and DEST.blobs/) in place.

With a PostgreSQL URL as --data, the copy is a JSON data file of the whole database (a snapshot taken in
one transaction) with its file bytes in DEST.blobs/; pg_dump is the tool for a database-level backup.

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL
  --out DEST    Where to write the copy (not the data file itself)
  --json        Print one JSON line: {"sequence", "records", "bytes"}
  --help        Show this help`,
  gc: `Usage: docs-platform gc [--data FILE] [--dry-run] [--json]

Removes from the file bytes (FILE.blobs/, or the database's blobs table) the blobs that nothing
references any more: files of batches that failed and of purged spaces, PDFs whose URLs expired,
documents of purged OpenAPI versions. Bytes last stored less than a day ago are never removed (an
upload may still be on its way to its record). Prints one line per blob removed, then a summary. The
bundled server runs the same collection every 6 hours; one process at a time collects (exit 1 when
another is collecting).

Options:
  --data FILE   The JSON data file (default ${DEFAULT_DATA}), or a PostgreSQL URL
  --dry-run     Only print what would be removed; change nothing
  --json        Print one JSON line: {"dryRun","startedAt","storedBefore","blobs","removed":[{"key","size","storedAt","reason"}],"removedBytes","endedHolds"}
  --help        Show this help

${LOCK_NOTE}`,
};

/** What `user create` and `token create` tell an operator to do over HTTP while a server holds the data file. */
const HTTP_WAY = {
  user: 'invite users over HTTP: an admin calls POST /v1/orgs/<org>/invites and hands each new user the claim URL of the answer, which gives them a token (README: Invite a teammate)',
  token: 'a user makes more tokens over HTTP with POST /v1/user/tokens, and a user without one gets a first token from the claim URL of an invite (POST /v1/orgs/<org>/invites)',
};

/** Opens `--data` for a command the running server also offers over HTTP: refused because a server holds the file, the message names that way. */
async function openDataOr(data: string, httpWay: string) {
  try {
    return await openData(data);
  } catch (error) {
    if (error instanceof StoreLockedError) throw new StoreLockedError(error.path, error.pid, httpWay);
    throw error;
  }
}

/** A usage error: printed as one line, exit code 2. */
class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

function parse(command: string, args: string[], options: Record<string, { type: 'string' | 'boolean' }>): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean' } }, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    fail(`${command}: ${(error as Error).message.split('\n')[0]}`);
  }
}

function required(command: string, values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') fail(`${command}: --${name} is required`);
  return value;
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return;
  }
  if (first === 'init') {
    const values = parse('init', rest, { data: { type: 'string' }, title: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } });
    if (values.help) return console.log(HELP.init);
    const platform = createPlatform(await openData((values.data as string) ?? DEFAULT_DATA));
    try {
      const created = await platform.initialize({ title: values.title as string, email: values.email as string, name: values.name as string });
      if (values.json) console.log(JSON.stringify(created));
      else console.log(`Created organization ${created.organizationId}\nOwner user ${created.userId} (role admin)\nAPI token (shown once): ${created.token}`);
    } finally {
      await platform.close();
    }
    return;
  }
  if (first === 'user') {
    const [sub, ...options] = rest;
    if (sub === '--help' || sub === undefined) return console.log(HELP['user create']);
    if (sub !== 'create') fail(`user: unknown subcommand ${JSON.stringify(sub)} (expected: user create)`);
    const values = parse('user create', options, {
      data: { type: 'string' }, org: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean' },
    });
    if (values.help) return console.log(HELP['user create']);
    const organizationId = required('user create', values, 'org');
    const email = required('user create', values, 'email');
    const name = required('user create', values, 'name');
    const role = required('user create', values, 'role');
    if (!(MEMBER_ROLES as readonly string[]).includes(role)) fail(`user create: --role must be one of ${MEMBER_ROLES.join(', ')}`);
    const platform = createPlatform(await openDataOr((values.data as string) ?? DEFAULT_DATA, HTTP_WAY.user));
    try {
      const created = await platform.addUser({ organizationId, email, name, role: role as MemberRole });
      if (values.json) console.log(JSON.stringify(created));
      else console.log(`User ${created.userId} is a member of ${organizationId} with role ${role}\nAPI token (shown once): ${created.token}`);
    } finally {
      await platform.close();
    }
    return;
  }
  if (first === 'token') {
    const [sub, ...options] = rest;
    if (sub === '--help' || sub === undefined) return console.log(HELP.token);
    if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') fail(`token: unknown subcommand ${JSON.stringify(sub)} (expected: token create, token list or token revoke)`);
    const values = parse(`token ${sub}`, options, { data: { type: 'string' }, user: { type: 'string' }, label: { type: 'string' }, id: { type: 'string' }, json: { type: 'boolean' } });
    if (values.help) return console.log(HELP.token);
    const userId = required(`token ${sub}`, values, 'user');
    const tokenId = sub === 'revoke' ? required('token revoke', values, 'id') : undefined;
    if (sub !== 'create' && values.label !== undefined) fail(`token ${sub}: --label is only for token create`);
    if (sub !== 'revoke' && values.id !== undefined) fail(`token ${sub}: --id is only for token revoke`);
    const data = (values.data as string) ?? DEFAULT_DATA;
    const platform = createPlatform(await (sub === 'create' ? openDataOr(data, HTTP_WAY.token) : openData(data)));
    try {
      console.log(await runTokenCommand(platform, { sub, userId, tokenId, label: values.label as string | undefined, json: values.json === true }));
    } finally {
      await platform.close();
    }
    return;
  }
  if (first === 'serve') {
    const values = parse('serve', rest, { data: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' } });
    if (values.help) return console.log(HELP.serve);
    const port = values.port === undefined ? 8080 : Number(values.port);
    if (!/^\d+$/.test(String(values.port ?? '8080')) || port > 65535) fail(`serve: --port must be a port number, not ${JSON.stringify(values.port)}`);
    let environment: ReturnType<typeof serverEnvironment>;
    try {
      environment = serverEnvironment();
    } catch (error) {
      fail(`serve: ${(error as Error).message}`);
    }
    const settings = { data: (values.data as string) ?? DEFAULT_DATA, port, host: (values.host as string) ?? '127.0.0.1', ...environment };
    if (values.workers === undefined) return runServer(settings, (line) => console.log(line));
    const workers = Number(values.workers);
    if (!/^\d+$/.test(String(values.workers)) || workers < 1 || workers > 64) fail(`serve: --workers must be 1 to 64, not ${JSON.stringify(values.workers)}`);
    await runCluster(settings, workers, (line) => console.log(line)).catch((error) => {
      if (error instanceof ClusterNeedsPostgresError) fail(`serve: ${error.message}`);
      throw error;
    });
    return;
  }
  if (first === 'mcp') {
    const values = parse('mcp', rest, { data: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' } });
    if (values.help) return console.log(HELP.mcp);
    const token = (values.token as string | undefined) ?? process.env.DOCS_PLATFORM_TOKEN;
    if (!token) fail('mcp: --token is required (or the DOCS_PLATFORM_TOKEN environment variable)');
    if (values.url !== undefined && values.data !== undefined) fail('mcp: give --url or --data, not both');
    if (values.url !== undefined) {
      if (!/^https?:\/\/[^/]/i.test(values.url as string)) fail(`mcp: --url must be an http(s) URL such as http://127.0.0.1:8080, not ${JSON.stringify(values.url)}`);
      return runMcpCommand({ url: values.url as string, token });
    }
    let environment: ReturnType<typeof serverEnvironment>;
    try {
      environment = serverEnvironment();
    } catch (error) {
      fail(`mcp: ${(error as Error).message}`);
    }
    const { baseUrl, fetchAllow, logLevel } = environment;
    return runMcpCommand({ data: (values.data as string) ?? DEFAULT_DATA, token, baseUrl, fetchAllow, logLevel: logLevel ?? 'info' }).catch((error) => {
      if (error instanceof McpCommandError) fail(error.message);
      throw error;
    });
  }
  if (first === 'backup') {
    const values = parse('backup', rest, { data: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } });
    if (values.help) return console.log(HELP.backup);
    const out = required('backup', values, 'out');
    const data = (values.data as string) ?? DEFAULT_DATA;
    if (resolve(out) === resolve(data)) fail('backup: --out must not be the data file');
    if (isPostgresUrl(data)) {
      const report = await copyInstallation(data, out, { replaceFile: true });
      if (values.json) console.log(JSON.stringify(report));
      else console.log([...describeCopy(report), `Backed up ${shownData(data)} to ${out}`].join('\n'));
      if (!report.complete) process.exitCode = 1;
      return;
    }
    const result = await backupJsonFile(data, out);
    if (values.json) console.log(JSON.stringify(result));
    else console.log(`Backed up ${result.records} records (through transaction ${result.sequence}) to ${out}, ${result.bytes} bytes`);
    return;
  }
  if (first === 'migrate') {
    const values = parse('migrate', rest, { from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } });
    if (values.help) return console.log(HELP.migrate);
    const from = required('migrate', values, 'from');
    const to = required('migrate', values, 'to');
    if (!isPostgresUrl(from) && !isPostgresUrl(to)) fail('migrate: one of --from and --to must be a PostgreSQL URL (postgres://...); copy a JSON data file with backup');
    const report = await copyInstallation(from, to);
    if (values.json) console.log(JSON.stringify(report));
    else console.log([...describeCopy(report), report.complete ? `Copied ${shownData(from)} to ${shownData(to)}` : 'The counts differ: the copy is incomplete'].join('\n'));
    if (!report.complete) process.exitCode = 1;
    return;
  }
  if (first === 'gc') {
    const values = parse('gc', rest, { data: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } });
    if (values.help) return console.log(HELP.gc);
    const report = await collectData((values.data as string) ?? DEFAULT_DATA, values['dry-run'] === true);
    console.log(values.json ? JSON.stringify(report) : describeCollection(report).join('\n'));
    return;
  }
  fail(`unknown command ${JSON.stringify(first)}; run "docs-platform --help"`);
}

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof TargetNotEmptyError || error instanceof CollectionBusyError) {
      console.error(`error: ${error.message}`);
      process.exit(1);
    }
    reportFatal(error);
  },
);
