import type { BaseASTNode, FunctionDefinition, StateVariableDeclaration } from '@solidity-parser/parser/dist/src/ast-types.js';
import { isExternallyVisible, usesMsg } from './functions.js';
import { scryptName } from './names.js';

/**
 * Public functions the contract's own code calls (`f(a)`, `this.f(a)`, `C.f(a)`). An sCrypt public function is
 * an entry point and cannot be called, so such a function is written twice: an internal function holding its
 * body (`fInternal`, which the calls reach) and the public entry point `f`, which checks what `fInternal`
 * returns against `retVal` (sol2scrypt instead turns `f` into an internal function, and callers lose it).
 *
 * Only where the body can run as an internal function: without `msg.sender` or `msg.value` (the entry point's
 * signature and amount parameters have no counterpart in a call) and without a mapping entry (an internal
 * function has no entry parameters). Any other public function called from code stays refused.
 *
 * Returns each such function's Solidity name with the sCrypt name of its internal copy.
 */
export function calledPublics(
  functions: readonly FunctionDefinition[],
  stateVars: readonly StateVariableDeclaration[],
  taken: ReadonlySet<string>,
): Map<string, string> {
  const maps = new Set(
    stateVars.flatMap((v) => v.variables.filter((x) => x.typeName?.type === 'Mapping' && x.name).map((x) => x.name as string)),
  );
  const candidates = new Map(
    functions
      .filter((fn) => fn.name && fn.body && !fn.isConstructor && isExternallyVisible(fn) && !usesMsg(fn, 'sender') && !usesMsg(fn, 'value'))
      .filter((fn) => !readsMapping(fn.body!, maps))
      .map((fn) => [fn.name as string, fn]),
  );
  const called = new Set<string>();
  for (const fn of functions) if (fn.body) for (const name of callsIn(fn.body)) if (candidates.has(name)) called.add(name);
  const out = new Map<string, string>();
  const used = new Set([...taken].map(scryptName));
  for (const name of [...called].sort()) {
    let internal = `${scryptName(name)}Internal`;
    for (let n = 2; used.has(internal); n++) internal = `${scryptName(name)}Internal${n}`;
    used.add(internal);
    out.set(name, internal);
  }
  return out;
}

/** Names called as `f(…)`, `this.f(…)` or `C.f(…)` in a body. */
function callsIn(body: BaseASTNode): string[] {
  const out: string[] = [];
  visit(body, (o) => {
    if (o.type !== 'FunctionCall') return;
    const callee = (o as unknown as { expression: { type: string; name?: string; memberName?: string; expression?: { type: string } } })
      .expression;
    if (callee.type === 'Identifier' && callee.name) out.push(callee.name);
    if (callee.type === 'MemberAccess' && callee.memberName && callee.expression?.type === 'Identifier') out.push(callee.memberName);
  });
  return out;
}

/** Whether a body indexes one of the contract's mappings (`m[k]`, `m[a][b]`, a storage pointer to an entry). */
function readsMapping(body: BaseASTNode, maps: ReadonlySet<string>): boolean {
  let found = false;
  visit(body, (o) => {
    if (o.type !== 'IndexAccess') return;
    type Node = { type: string; name?: string; base?: unknown; memberName?: string; expression?: { type: string; name?: string } };
    let base = (o as unknown as { base: Node }).base;
    while (base.type === 'IndexAccess') base = base.base as Node;
    const name =
      base.type === 'Identifier'
        ? base.name
        : base.type === 'MemberAccess' && base.expression?.name === 'this'
          ? base.memberName
          : undefined;
    if (name && maps.has(name)) found = true;
  });
  return found;
}

function visit(node: unknown, on: (o: { type: string }) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((n) => visit(n, on));
  const o = node as { type?: string };
  if (typeof o.type === 'string') on(o as { type: string });
  for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v, on);
}
