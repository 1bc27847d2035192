import type { ContractLike, Func } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { startOf, type Facts } from './model.js';

/**
 * Pass 6, no recursion (functions.rst: every call is inlined, so a function may not reach itself).
 * Builds the call graph of user functions — private, default and static functions of contracts and
 * library methods — from the calls the earlier passes resolved, and reports every cycle once, at the call
 * that closes it: `recursion is not allowed: f → g → f`.
 */
export function checkRecursion(facts: Facts, diags: Diagnostics): void {
  const edges = new Map<Func, { to: Func; owner: ContractLike; at: Position }[]>();
  const ownerOf = new Map<Func, ContractLike>();
  for (const c of facts.env.program.items)
    if (c.kind === 'contract' || c.kind === 'library') for (const f of c.functions) ownerOf.set(f, c);
  for (const [call, target] of facts.calls) {
    const from = facts.callers.get(call);
    if (!from) continue; // a call from a constructor or an initialiser cannot be part of a cycle
    const list = edges.get(from.fn) ?? [];
    list.push({ to: target.fn, owner: target.owner, at: startOf(call) });
    edges.set(from.fn, list);
  }
  for (const list of edges.values()) list.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);

  const name = (f: Func, path: Func[]) => {
    const owner = ownerOf.get(f);
    const mixed = path.some((g) => ownerOf.get(g) !== owner);
    return mixed && owner ? `${owner.name}.${f.name}` : f.name;
  };

  // Depth-first search; a back edge to a function on the current path closes a cycle.
  const state = new Map<Func, 'active' | 'done'>();
  const path: Func[] = [];
  const reported = new Set<string>();
  const visit = (f: Func) => {
    state.set(f, 'active');
    path.push(f);
    for (const edge of edges.get(f) ?? []) {
      const s = state.get(edge.to);
      if (s === 'active') {
        const cycle = path.slice(path.indexOf(edge.to));
        const key = [...cycle]
          .sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column)
          .map((g) => `${g.at.line}:${g.at.column}`)
          .join(',');
        if (!reported.has(key)) {
          reported.add(key);
          diags.error(edge.at, `recursion is not allowed: ${[...cycle, edge.to].map((g) => name(g, cycle)).join(' → ')}`);
        }
      } else if (!s) visit(edge.to);
    }
    path.pop();
    state.set(f, 'done');
  };
  const roots = [...ownerOf.keys()].sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
  for (const f of roots) if (!state.has(f)) visit(f);
}
