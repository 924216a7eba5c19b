import { sha256Hex, type BlobStore } from '../../../src/core/blobs.js';
import type { manualClock } from '../../../src/core/clock.js';
import type { Api, Platform } from '../../../src/core/platform.js';

/**
 * The model of the blob collection's property: when each content was last stored, which spaces reference
 * each content (a file of one of their revisions), and the spaces with when they were deleted. It knows
 * nothing of revisions, holds or the store: only "referenced by a space that is not purged yet".
 */

/** How long unreferenced bytes stay: the platform runs with this grace period. */
export const GRACE_MS = 2 * 24 * 60 * 60 * 1000;
/** How long a deleted space stays in the trash before the sweep may purge it. */
export const TRASH_MS = 7 * 24 * 60 * 60 * 1000;

/** The contents files are made of: few, so that the same bytes are uploaded again and shared. */
export const CONTENTS = ['alpha', 'beta', 'gamma', 'delta'] as const;

export interface ModelSpace {
  deletedAt?: number;
  purged: boolean;
}

export interface Model {
  now: number;
  /** Content index → when its bytes were last stored; absent: not in the blob store. */
  storedAt: Map<number, number>;
  /** Content index → the spaces (by index) whose revisions have it as a file. */
  referencedBy: Map<number, Set<number>>;
  spaces: ModelSpace[];
}

/** The system under test: a platform over the store of the run, its blob store, its clock. */
export interface Real {
  platform: Platform;
  api: Api;
  organizationId: string;
  blobs: BlobStore;
  clock: ReturnType<typeof manualClock>;
  /** The spaces made, by index: each with the change request files are added in. */
  spaces: { id: string; changeRequestId: string }[];
  /** The blob key of each content. */
  keys: string[];
}

/** The blob keys of the contents, in order. */
export const contentKeys = (): Promise<string[]> => Promise.all(CONTENTS.map((text) => sha256Hex(new TextEncoder().encode(text))));

/** Whether a content is referenced by a space not purged yet. */
export function referenced(model: Model, content: number): boolean {
  return [...(model.referencedBy.get(content) ?? [])].some((space) => !model.spaces[space]!.purged);
}

/** The contents a collection that starts now must remove: stored, unreferenced, last stored before the grace period. */
export function collectable(model: Model): number[] {
  return [...model.storedAt]
    .filter(([content, storedAt]) => !referenced(model, content) && storedAt < model.now - GRACE_MS)
    .map(([content]) => content)
    .sort();
}

/** The base64 of a content, for a batch's insert_files. */
export const base64Of = (content: number) => btoa(CONTENTS[content]!);
