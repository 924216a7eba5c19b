import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** What the browser tests share: Debian's Chromium, where they save screenshots, and how long launching may take. */

/** Debian's Chromium, which .ci/run installs; DOCS_PLATFORM_CHROMIUM names another (one unpacked elsewhere, say). */
export const CHROMIUM = process.env.DOCS_PLATFORM_CHROMIUM ?? '/usr/bin/chromium';
/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where screenshots go. */
export const OUTPUT = join(ROOT, 'test-output');
/** How long launching may take, so that a file ends within a minute even when it fails. */
export const LAUNCH = 20_000;
/** Whether the browser tests run: CI installs Chromium first, so there a missing browser is a failure, never a skip. */
export const available = existsSync(CHROMIUM) || Boolean(process.env.CI);

/** Launches headless Chromium (--no-sandbox: CI runs as root, where Chromium's sandbox refuses to start). */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'], timeout: LAUNCH });
