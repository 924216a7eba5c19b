import type { MarkedRun } from '../core/reader.js';
import { html, type Html } from './html.js';

/** Text whose matched words the core marked (a search hit's title or excerpt), with those words in `<mark>`. */
export const markedHtml = (runs: readonly MarkedRun[]): Html => html`${runs.map((run) => (run.mark ? html`<mark>${run.text}</mark>` : html`${run.text}`))}`;
