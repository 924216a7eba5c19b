import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem, type CpuInfo } from 'node:os';

/** Where the bench ran: the figures mean little without it. */
export interface MachineInfo {
  cpus: CpuInfo[];
  cores: number;
  totalMemoryMb: number;
  platform: string;
  release: string;
  arch: string;
  node: string;
  autocannon: string;
  /** The 1, 5 and 15 minute load averages when the run began; other work on the machine skews every figure. */
  loadAverage: number[];
  /** The commit and the files changed in the working tree: the code measured. */
  git: { commit: string | null; changed: string[] };
  /** The file system of the data files: on tmpfs an fsync costs nothing and "durable" means little. */
  dataFileSystem: string;
}

const FILE_SYSTEMS: Record<number, string> = {
  0xef53: 'ext2/3/4',
  0x01021994: 'tmpfs',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x794c7630: 'overlayfs',
  0x6969: 'nfs',
};

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
  } catch {
    return null;
  }
}

/** Describes this machine, the code in the working tree and the file system of `dataDir`. */
export async function describeMachine(dataDir: string): Promise<MachineInfo> {
  const autocannonPackage = JSON.parse(readFileSync(new URL('../node_modules/autocannon/package.json', import.meta.url), 'utf8')) as { version: string };
  const { type } = await statfs(dataDir);
  return {
    cpus: cpus(),
    cores: cpus().length,
    totalMemoryMb: Math.round(totalmem() / 2 ** 20),
    platform: process.platform,
    release: release(),
    arch: process.arch,
    node: process.version,
    autocannon: autocannonPackage.version,
    loadAverage: loadavg(),
    git: {
      commit: git(['rev-parse', 'HEAD']),
      changed: (git(['status', '--porcelain']) ?? '').split('\n').filter(Boolean),
    },
    dataFileSystem: FILE_SYSTEMS[type] ?? `type 0x${type.toString(16)}`,
  };
}
