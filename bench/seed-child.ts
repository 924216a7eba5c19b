/** Child process: seeds a data file (`seed-child.ts <path> <members>`) and reports what it made. */
import { runAsChild } from './child.js';
import { seedDataFile } from './seed.js';

runAsChild(async () => ({ info: await seedDataFile(process.argv[2], Number(process.argv[3])) }));
