/** docs-platform: the library's public entry. */
export { createPlatform, type Api, type Platform, type PlatformOptions } from './core/platform.js';
export type { Fetch } from './core/context.js';
export { inlineWorkers, JobLimitError, type Workers } from './core/workers.js';
export type { Job } from './core/job.js';
export { operations, type Operations } from './core/operations.js';
export { routes } from './core/routes.js';
export type { Operation, Route } from './core/operation.js';
export { ApiError } from './core/errors.js';
export { manualClock, systemClock, type Clock } from './core/clock.js';
export { randomIds, sequentialIds, type Ids } from './core/ids.js';
export { MEMBER_ROLES, TEAM_ROLES, type MemberRole, type TeamRole } from './core/roles.js';
export { createMemoryStore } from './store/memory.js';
export { createMemoryBlobStore, type BlobStore } from './core/blobs.js';
export { createFolderBlobStore } from './store/blob-folder.js';
export { createJsonFileStore, CorruptDataFileError, type JsonFileStoreOptions } from './store/json-file.js';
export { StoreLockedError } from './store/lock-file.js';
export type { Store, ReadTransaction, WriteTransaction, ListQuery, ListResult, StoredRecord } from './store/types.js';
