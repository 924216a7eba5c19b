import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createPlatform } from '../src/core/platform.js';
import { addUser } from '../src/core/setup/operator.js';
import { createJsonFileStore } from '../src/store/json-file.js';
import type { Store, WriteTransaction } from '../src/store/types.js';

/** What seeding made: the organization, its owner's token, and some of its members. */
export interface SeededData {
  organizationId: string;
  /** The owner: the organization's only admin. */
  ownerId: string;
  /** The owner's API token. */
  token: string;
  /** Members in total, the owner included. */
  members: number;
  /** User ids of up to 1,000 members other than the owner (all role `read`), spread over the whole set. */
  memberIds: string[];
  /** How long seeding took, and the bytes of the files the store left in the data file's folder. */
  seedMs: number;
  dataBytes: number;
}

/** Members added per write transaction (see seedDataFile). */
const MEMBERS_PER_TRANSACTION = 10_000;
const SAMPLE = 1_000;

/**
 * Creates a JSON-file data file (at `path`, in a folder of its own) holding one organization with `members` members: its owner (admin)
 * and `members - 1` users with role `read`, each with a token, exactly as the CLI's `user create` makes
 * them (operator.ts's addUser does the work, so the records are the real ones).
 *
 * Why not call platform.addUser once per member: each call is its own durable commit, and every flush
 * of the JSON-file store rewrites the whole file, so 100,000 of them took 86 s on this machine
 * (serialize() was 44% of the CPU profile, garbage collection 31%). Here addUser runs inside write
 * transactions of 10,000 members (see transactionStore), which are queued together so that the
 * store's group commit writes the file a few times instead of 100,000 times. Inside a transaction the
 * addUser calls run concurrently: each awaits a SHA-256 of its token on the thread pool, and one after
 * the other they left the process idle a third of the time. That is safe here because every call
 * touches only its own user, member and token (the e-mail addresses are distinct). 100,000 members
 * take 12-30 s, depending on what else the machine runs.
 */
export async function seedDataFile(path: string, members: number): Promise<SeededData> {
  const started = performance.now();
  const store = await createJsonFileStore({ path });
  try {
    const platform = createPlatform({ store });
    const owner = await platform.initialize({ title: 'Bench organization', email: 'owner@bench.local', name: 'Bench Owner' });
    const ports = (tx: WriteTransaction) => ({ store: transactionStore(tx), clock: platform.clock, ids: platform.ids });
    const batches: Promise<string[]>[] = [];
    for (let first = 1; first < members; first += MEMBERS_PER_TRANSACTION) {
      const last = Math.min(first + MEMBERS_PER_TRANSACTION, members);
      batches.push(
        store.write(async (tx) => {
          const added = [];
          for (let n = first; n < last; n++) {
            added.push(addUser(ports(tx), { organizationId: owner.organizationId, email: `member${n}@bench.local`, name: `Member ${n}`, role: 'read' }));
          }
          return (await Promise.all(added)).map(({ userId }) => userId);
        }),
      );
    }
    const userIds = (await Promise.all(batches)).flat();
    const step = Math.max(1, Math.floor(userIds.length / SAMPLE));
    const memberIds = userIds.filter((_, at) => at % step === 0).slice(0, SAMPLE);
    await store.close();
    return {
      organizationId: owner.organizationId,
      ownerId: owner.userId,
      token: owner.token,
      members,
      memberIds,
      seedMs: Math.round(performance.now() - started),
      dataBytes: await folderBytes(dirname(path)),
    };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/** The bytes of the files in a folder: the data file, and whatever else a store keeps beside it (a journal). */
async function folderBytes(folder: string): Promise<number> {
  let bytes = 0;
  for (const name of await readdir(folder)) bytes += (await stat(join(folder, name))).size;
  return bytes;
}

/**
 * A Store whose reads and writes all run in one open write transaction: it lets an operator function
 * that opens its own transaction (addUser) take part in a larger one. Nothing commits until the outer
 * transaction does.
 */
function transactionStore(tx: WriteTransaction): Store {
  return {
    read: (fn) => fn(tx),
    write: (fn) => fn(tx),
    ready: async () => undefined,
    close: async () => undefined,
  };
}
