import { ApiError } from '../core/errors.js';
import { CorruptDataFileError } from '../store/json-file.js';
import { StoreLockedError } from '../store/lock-file.js';
import { SchemaTooNewError } from '../store/postgres/migrate.js';
import { StoreUnavailableError } from '../store/types.js';

/** Prints a failure as one line and exits: 2 for bad input, 1 for everything else. */
export function reportFatal(error: unknown): never {
  if (error instanceof ApiError && error.status < 500) {
    console.error(`error: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof StoreLockedError || error instanceof CorruptDataFileError || error instanceof StoreUnavailableError || error instanceof SchemaTooNewError) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
  // Any failure to bind: a port in use or not allowed, an address the host lacks, a name that does not resolve.
  const syscall = (error as NodeJS.ErrnoException)?.syscall;
  if (syscall === 'listen' || syscall === 'getaddrinfo') {
    console.error(`error: cannot listen: ${(error as Error).message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
}
