import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml } from './html.js';

/**
 * Syntax highlighting of code blocks, on the server: highlight.js (well kept, no client code, escapes what
 * it emits) with its core and the languages documentation uses most, so that loading it stays small and
 * the rest of its 190 grammars are never read. A block of another language, or none, is shown as plain text.
 */

// ini also reads TOML (its alias `toml`); shell reads sessions (`console`, `shell-session`): prompts and output.
const LANGUAGES = { bash, css, diff, go, ini, java, javascript, json, markdown, python, ruby, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Code as HTML: highlighted when its language is known, else escaped. */
export function highlightCode(code: string, language: string): string {
  const name = language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (name !== '' && hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  return escapeHtml(code);
}
