import { createMemoryStore } from '../../src/store/memory.js';
import { runStoreContract } from './contract.js';

runStoreContract({ name: 'memory', create: async () => createMemoryStore() });
