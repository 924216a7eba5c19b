import type { Route } from '../core/operation.js';

/** What matching a request's method and path found. */
export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

interface Node {
  readonly literal: Map<string, Node>;
  param?: { name: string; node: Node };
  readonly methods: Map<string, Route>;
}

const newNode = (): Node => ({ literal: new Map(), methods: new Map() });

/** Splits a path into its segments; a trailing slash is ignored. */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/');
  segments.shift();
  return segments;
}

/**
 * A segment trie over the route table. Literal segments win over parameters (`/versions/latest`
 * before `/versions/{versionId}`), with backtracking when a literal branch leads nowhere.
 */
export class Router {
  private readonly root = newNode();

  constructor(routes: readonly Route[]) {
    for (const route of routes) this.add(route);
  }

  private add(route: Route): void {
    let node = this.root;
    for (const segment of segmentsOf(route.path)) {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        if (node.param && node.param.name !== param[1]) {
          throw new Error(`${route.path}: parameter {${param[1]}} clashes with {${node.param.name}}`);
        }
        node.param ??= { name: param[1], node: newNode() };
        node = node.param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.methods.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    node.methods.set(route.method, route);
  }

  /** Finds the route for a method and a raw (still percent-encoded) path. */
  match(method: string, path: string): Match {
    const params: Record<string, string> = {};
    const node = find(this.root, segmentsOf(path), 0, params);
    if (!node) return { kind: 'not-found' };
    const route = node.methods.get(method);
    if (route) return { kind: 'route', route, params };
    return { kind: 'method-not-allowed', allowed: [...node.methods.keys()] };
  }
}

function find(node: Node, segments: string[], at: number, params: Record<string, string>): Node | undefined {
  if (at === segments.length) return node.methods.size > 0 ? node : undefined;
  const segment = segments[at];
  const literal = node.literal.get(segment);
  const viaLiteral = literal && find(literal, segments, at + 1, params);
  if (viaLiteral) return viaLiteral;
  if (node.param && segment !== '') {
    const found = find(node.param.node, segments, at + 1, params);
    if (found) {
      params[node.param.name] = segment;
      return found;
    }
  }
  return undefined;
}
