import * as v from 'valibot';
import { badRequest } from './errors.js';

/** The dotted path of an issue, e.g. `memberships.u1.role`. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

/** A sentence for the first issue: the field, then the rule it breaks (`title: must be 1 to 64 characters`). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], prefix?: string): string {
  // A union reports its own issue; its members' issues say more about a near miss.
  let issue = issues[0];
  const path = [prefix, pathOf(issue)].filter(Boolean).join('.');
  if (issue.type === 'union' && !issue.message.startsWith('Invalid')) {
    return `${path || 'value'}: ${issue.message}`;
  }
  if (issue.type === 'object' && issue.received === 'undefined' && path) {
    return `${path}: is required`;
  }
  if (issue.kind === 'schema' && issue.received === 'undefined') {
    return `${path || 'value'}: is required`;
  }
  if (issue.type === 'picklist' || issue.type === 'literal') {
    return `${path || 'value'}: must be ${issue.expected}, not ${issue.received}`;
  }
  while (issue.issues?.length && issue.message.startsWith('Invalid type')) issue = issue.issues[0];
  const message = issue.message.startsWith('Invalid type')
    ? `must be ${issue.expected}, not ${issue.received}`
    : issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  return `${path || 'value'}: ${message}`;
}

/** Validates a value against a schema; a failure is a 400 naming the field. */
export function parseOrThrow<T>(schema: v.GenericSchema<unknown, T>, value: unknown, prefix?: string): T {
  const result = v.safeParse(schema, value);
  if (!result.success) throw badRequest(describeIssues(result.issues, prefix));
  return result.output;
}
