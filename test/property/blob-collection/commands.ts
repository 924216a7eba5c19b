import fc from 'fast-check';
import { expect } from 'vitest';
import { base64Of, collectable, CONTENTS, GRACE_MS, referenced, TRASH_MS, type Model, type Real } from './model.js';

/**
 * The commands: store bytes that no record takes (an upload whose batch failed, or one still in flight),
 * add a file to a space, delete a space, purge the trash, let time pass, and collect. After each one,
 * every referenced content is still in the blob store.
 */

type Command = fc.AsyncCommand<Model, Real>;

/** Every content a space not purged references is still readable from the blob store. */
async function referencedKept(model: Model, real: Real): Promise<void> {
  for (const content of CONTENTS.keys()) {
    if (referenced(model, content)) expect(await real.blobs.get(real.keys[content]!), `content ${content} is referenced`).toBeDefined();
  }
}

/** The blobs in the blob store, as content indexes. */
async function listed(real: Real): Promise<number[]> {
  const contents: number[] = [];
  for await (const blob of real.blobs.list()) contents.push(real.keys.indexOf(blob.key));
  return contents.sort();
}

/** The live space at a position among the spaces that are not deleted. */
const liveSpace = (model: Model, pick: number) => {
  const live = model.spaces.flatMap((space, index) => (space.deletedAt === undefined ? [index] : []));
  return live.length === 0 ? undefined : live[pick % live.length];
};

const store = (model: Model, content: number) => model.storedAt.set(content, Math.max(model.storedAt.get(content) ?? 0, model.now));

class Upload implements Command {
  constructor(readonly content: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await real.blobs.put(new TextEncoder().encode(CONTENTS[this.content]));
    store(model, this.content);
    await referencedKept(model, real);
  }
  toString = () => `Upload(${this.content})`;
}

/**
 * A batch that adds a file to a live space; a failing one then fails on a later change, so its bytes are
 * stored but never referenced.
 */
class AddFile implements Command {
  constructor(
    readonly pick: number,
    readonly content: number,
    readonly failing: boolean,
  ) {}
  check = (model: Readonly<Model>) => liveSpace(model as Model, this.pick) !== undefined;
  async run(model: Model, real: Real) {
    const space = liveSpace(model, this.pick)!;
    const { id, changeRequestId } = real.spaces[space]!;
    const file = { operation: 'insert_files' as const, files: [{ name: 'file.txt', contentType: 'text/plain', base64: base64Of(this.content) }] };
    const batch = real.api.updateChangeRequestContent({
      spaceId: id,
      changeRequestId,
      changes: this.failing ? [file, { operation: 'delete_page', page: 'no-such-page' }] : [file],
    });
    if (this.failing) await expect(batch).rejects.toMatchObject({ status: 400, message: expect.stringContaining('changes[1] (delete_page)') });
    else await batch;
    store(model, this.content);
    if (!this.failing) model.referencedBy.set(this.content, (model.referencedBy.get(this.content) ?? new Set()).add(space));
    await referencedKept(model, real);
  }
  toString = () => `AddFile(${this.pick}, ${this.content}${this.failing ? ', failing' : ''})`;
}

class CreateSpace implements Command {
  check = (model: Readonly<Model>) => model.spaces.length < 6;
  async run(model: Model, real: Real) {
    const space = await real.api.createSpace({ organizationId: real.organizationId, title: `Space ${model.spaces.length}` });
    const changeRequest = await real.api.createChangeRequest({ spaceId: space.id });
    real.spaces.push({ id: space.id, changeRequestId: changeRequest.id });
    model.spaces.push({ purged: false });
  }
  toString = () => 'CreateSpace';
}

class DeleteSpace implements Command {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => liveSpace(model as Model, this.pick) !== undefined;
  async run(model: Model, real: Real) {
    const space = liveSpace(model, this.pick)!;
    await real.api.deleteSpace({ spaceId: real.spaces[space]!.id });
    model.spaces[space]!.deletedAt = model.now;
    await referencedKept(model, real);
  }
  toString = () => `DeleteSpace(${this.pick})`;
}

class PurgeTrash implements Command {
  check = () => true;
  async run(model: Model, real: Real) {
    await real.platform.purgeDeletedSpaces();
    for (const space of model.spaces) if (space.deletedAt !== undefined && model.now - space.deletedAt > TRASH_MS) space.purged = true;
    await referencedKept(model, real);
  }
  toString = () => 'PurgeTrash';
}

class AdvanceClock implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.advance(this.ms);
    model.now += this.ms;
  }
  toString = () => `AdvanceClock(${this.ms})`;
}

/** A collection removes exactly the unreferenced contents last stored before its grace period; a dry run only names them. */
class Collect implements Command {
  constructor(readonly dryRun: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const expected = collectable(model);
    const report = await real.platform.collectBlobs({ dryRun: this.dryRun });
    expect(report).not.toBeNull();
    expect(report!.removed.map((blob) => real.keys.indexOf(blob.key)).sort()).toEqual(expected);
    if (!this.dryRun) for (const content of expected) model.storedAt.delete(content);
    expect(await listed(real)).toEqual([...model.storedAt.keys()].sort());
    await referencedKept(model, real);
  }
  toString = () => `Collect(${this.dryRun ? 'dry run' : ''})`;
}

const pick = fc.nat();
const content = fc.nat({ max: CONTENTS.length - 1 });
/** Steps of time around the grace period and the trash's 7 days. */
const step = fc.oneof(fc.integer({ min: 0, max: 3 * 24 * 60 * 60 * 1000 }), fc.constantFrom(GRACE_MS, GRACE_MS + 1, TRASH_MS + 1));

/** The commands, weighted towards uploads and collections. */
export const commands = [
  content.map((c) => new Upload(c)),
  fc.tuple(pick, content).map(([p, c]) => new AddFile(p, c, false)),
  fc.tuple(pick, content).map(([p, c]) => new AddFile(p, c, false)),
  fc.tuple(pick, content).map(([p, c]) => new AddFile(p, c, true)),
  fc.constant(new CreateSpace()),
  pick.map((p) => new DeleteSpace(p)),
  fc.constant(new PurgeTrash()),
  step.map((ms) => new AdvanceClock(ms)),
  step.map((ms) => new AdvanceClock(ms)),
  fc.boolean().map((dryRun) => new Collect(dryRun)),
  fc.constant(new Collect(false)),
];
