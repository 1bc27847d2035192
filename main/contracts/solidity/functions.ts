import type { BaseASTNode, FunctionDefinition, Statement } from '@solidity-parser/parser/dist/src/ast-types.js';
import { FunctionState, type ContractInfo, type FunctionKind, type ProgramContext, type Scope } from './context.js';
import { assignedNames, expr, namesIn, type Cx } from './expressions.js';
import { spanOf, type Span } from './logs.js';
import { scryptName } from './names.js';
import { assign, bin, call, member, raw, requireStmt, type SExpr, type SMember, type SParam, type SStmt } from './sast.js';
import { mayReturn, Statements } from './statements.js';
import { solType } from './type-names.js';
import { BOOL, type SolType } from './types.js';

const PREIMAGE: SParam = { type: 'SigHashPreimage', name: 'txPreimage' };
const decl = (type: string, name: string, init: SExpr): SStmt => ({ k: 'decl', type, name, init });

/** The first `msg.<member>` in a function body, in source order. */
function firstMsg(node: BaseASTNode, memberName: string): Span | null {
  let at: Span | null = null;
  const visit = (x: unknown): void => {
    if (at || !x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as { type?: string; memberName?: string; expression?: { type?: string; name?: string } };
    if (o.type === 'MemberAccess' && o.memberName === memberName && o.expression?.type === 'Identifier' && o.expression.name === 'msg') {
      at = spanOf(o as BaseASTNode);
      return;
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v);
  };
  visit(node);
  return at;
}

/** Whether `e` reads a top-level local declared after the body's first statement that may return. */
function readsLateLocal(stmts: Statement[], e: BaseASTNode): boolean {
  const first = stmts.findIndex(mayReturn);
  const late = new Set<string>();
  for (const s of stmts.slice(first + 1)) {
    if (s.type === 'VariableDeclarationStatement')
      for (const v of s.variables) if (v && (v as unknown as { name?: string }).name) late.add((v as unknown as { name: string }).name);
  }
  let reads = false;
  const visit = (x: unknown): void => {
    if (reads || !x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as { type?: string; name?: string };
    if (o.type === 'Identifier' && o.name && late.has(o.name)) reads = true;
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v);
  };
  visit(e);
  return reads;
}

/**
 * Whether a function is called from outside: `public`, `external`, or no visibility at all (Solidity before
 * 0.5 made such a function public; later versions reject it).
 */
export const isExternallyVisible = (fn: FunctionDefinition) =>
  fn.visibility === 'public' || fn.visibility === 'external' || fn.visibility === 'default';

export const usesMsg = (node: BaseASTNode, memberName: 'sender' | 'value') => firstMsg(node, memberName) !== null;

/** Where a function's name is written (the parser gives the definition's range, not the name's). */
function nameSpan(p: ProgramContext, fn: FunctionDefinition): Span {
  const whole = spanOf(fn);
  const m = new RegExp(`\\bfunction\\s+(${(fn.name ?? '').replace(/\$/g, '\\$')})\\b`).exec(p.source.text.slice(whole.start, whole.end));
  if (!m) return whole;
  const start = whole.start + m.index + m[0].length - m[1].length;
  return { start, end: start + m[1].length };
}

/**
 * One function or constructor. Public (and external) functions become sCrypt public functions: a value
 * returned becomes a `retVal` parameter checked with `require`, `msg.sender` a signature and public key
 * checked against each other, `msg.value` an amount parameter, each mapping entry a value and an index
 * parameter checked against the map and stored back when written, and in a stateful contract the
 * sighash preimage with the propagation of the new state. Other functions keep their shape and return
 * `bool` when Solidity returns nothing.
 */
export function transpileFunction(
  p: ProgramContext,
  c: ContractInfo,
  scope: Scope,
  fn: FunctionDefinition,
  loopCounter: number,
  /** Write a public function as its internal copy, under this name (called-publics.ts). */
  internalCopy?: string,
): { member: SMember | null; loopCounter: number } {
  const kind: FunctionKind = fn.isConstructor
    ? 'ctor'
    : c.isLibrary
      ? 'library'
      : isExternallyVisible(fn) && !internalCopy
        ? 'public'
        : 'internal';
  const name = fn.name ?? 'constructor';
  const f = new FunctionState(kind, name, fn.isConstructor ? loopCounter : 0);

  // Return type first, then parameters, as sol2scrypt reports them.
  const returns = fn.returnParameters ?? [];
  if (returns.length > 1)
    p.error(
      { start: spanOf(returns[0]).start, end: spanOf(returns[returns.length - 1]).end },
      'unsupported function definition with multi-returns',
    );
  const retType: SolType | null = returns.length === 1 && returns[0].typeName ? solType(p, returns[0].typeName) : null;
  const retName = returns.length === 1 ? returns[0].name : null;

  scope.push();
  const params: SParam[] = [];
  for (const param of fn.parameters) {
    const t = param.typeName ? solType(p, param.typeName) : null;
    if (!param.name) {
      p.error(param, `unsupported parameter: \`${p.text(param)}\``);
      continue;
    }
    if (t) {
      scope.declare(param.name, 'local', t, 0);
      params.push({ type: p.typeText(t), name: scryptName(param.name) });
    }
  }
  if (kind !== 'public' && kind !== 'ctor') {
    const sender = firstMsg(fn, 'sender');
    const value = firstMsg(fn, 'value');
    if (sender) p.error(sender, 'unsupported using `msg.sender` in `internal` or `private` function');
    if (value) p.error(value, 'unsupported using `msg.value` in `internal` or `private` function');
  }
  if (!fn.body) {
    p.error(fn, fn.isConstructor ? 'unsupported constructor definition without body' : 'unsupported function definition without body');
    scope.pop();
    return { member: null, loopCounter };
  }

  f.assigned = assignedNames(fn.body);
  f.used = new Set([...namesIn(fn.body), ...fn.parameters.map((x) => x.name ?? '')]);
  const cx: Cx = { p, c, f, scope };
  const statements = new Statements(cx);
  const stmts = [...fn.body.statements] as Statement[];
  const last = stmts.at(-1);
  let finalReturn = last?.type === 'ReturnStatement' ? (stmts.pop() as Extract<Statement, { type: 'ReturnStatement' }>) : null;
  f.middleReturn = stmts.some(mayReturn);
  // After an early return the rest of the body runs inside `if (!returned) {…}`: a final return that reads a
  // variable declared in there must be made inside it too (then the function returns `ret`).
  if (finalReturn?.expression && f.middleReturn && readsLateLocal(stmts, finalReturn.expression)) {
    stmts.push(finalReturn);
    finalReturn = null;
  }
  const named = retName && retType ? retName : null;
  f.namedReturn = named ? scryptName(named) : null;
  if (named && retType) scope.declare(named, 'local', retType, 0);

  // The body's top level shares the parameters' scope (depth 1; the parameters themselves count as 0).
  const body = statements.list(stmts);
  const finalValue = finalReturn?.expression ? expr(cx, finalReturn.expression) : null;
  body.push(...statements.takeChecks(1));
  scope.pop();
  if (kind !== 'public' && kind !== 'ctor' && f.mapAt) {
    p.error(nameSpan(p, fn), `accessing mapping expression in \`internal\` or \`private\` function \`${name}\` is not supported`);
  }

  const retTypeText = retType ? p.typeText(retType) : 'bool';
  const prelude: SStmt[] = [];
  if (f.middleReturn)
    prelude.push(decl(retTypeText, 'ret', p.defaultOf(retType ?? BOOL) ?? raw('false')), decl('bool', 'returned', raw('false')));
  if (named && retType) prelude.push(decl(retTypeText, scryptName(named), p.defaultOf(retType) ?? raw('0')));
  const returnedOr = (e: SExpr): SExpr => (f.middleReturn ? { k: 'ternary', c: raw('returned'), t: raw('ret'), e } : e);

  if (kind === 'ctor') {
    const ctorParams = [...params];
    if (f.valueAt) ctorParams.push({ type: 'int', name: 'msgValue' });
    if (f.senderAt) ctorParams.push({ type: 'PubKeyHash', name: 'msgSender' });
    ctorParams.push(...entryParams(p, f));
    const tail = [...aliasGuards(f), ...writeBacks(f), ...(f.valueAt ? [assign(raw('this.initBalance'), raw('msgValue'))] : [])];
    // Arrays the contract pushes to start empty.
    const counters = [...(c.pushed?.values() ?? [])].map((a) => assign(raw(`this.${a.counter}`), raw('0')));
    return {
      member: { k: 'ctor', params: ctorParams, body: [...counters, ...prelude, ...statements.takeChecks(0), ...body, ...tail] },
      loopCounter: f.loopCounter,
    };
  }

  if (kind === 'public') {
    const needsPreimage = c.stateful || f.valueAt !== null;
    const all = [...params];
    if (f.valueAt) all.push({ type: 'int', name: 'msgValue' });
    if (f.senderAt) all.push({ type: 'Sig', name: 'sig' }, { type: 'PubKey', name: 'pubKey' });
    const expectedName = named ? `_${scryptName(named)}` : 'retVal';
    const expected = retType ? raw(expectedName) : null;
    if (retType && expected) all.push({ type: retTypeText, name: expectedName });
    all.push(...entryParams(p, f));
    if (needsPreimage) all.push(PREIMAGE);

    const head: SStmt[] = [];
    if (c.initBalance && needsPreimage) head.push(requireStmt(call('this.checkInitBalance', [raw('txPreimage')])));
    if (f.valueAt) head.push(decl('int', 'contractBalance', bin('+', call('SigHash.value', [raw('txPreimage')]), raw('msgValue'))));
    head.push(...prelude);
    if (f.senderAt)
      head.push(
        decl('PubKeyHash', 'msgSender', call('hash160', [raw('pubKey')])),
        requireStmt(call('checkSig', [raw('sig'), raw('pubKey')])),
      );
    if (f.valueAt) head.push(requireStmt(bin('>=', raw('msgValue'), raw('0'))));
    head.push(...statements.takeChecks(0));

    const tail: SStmt[] = [];
    if (expected) {
      // A function that ends without a `return` returns its type's default, as in Solidity: the caller's
      // `retVal` is checked against it too (left unchecked, any value would pass for what it returned).
      const result = finalValue
        ? returnedOr(finalValue)
        : named
          ? returnedOr(raw(scryptName(named)))
          : f.middleReturn
            ? raw('ret')
            : (p.defaultOf(retType!) ?? raw('0'));
      tail.push(requireStmt(bin('==', result, expected)));
    }
    tail.push(...aliasGuards(f), ...writeBacks(f));
    const out = [...head, ...body, ...tail];
    if (c.stateful) {
      out.push(
        requireStmt(
          call('this.propagateState', [raw('txPreimage'), f.valueAt ? raw('contractBalance') : call('SigHash.value', [raw('txPreimage')])]),
        ),
      );
    } else if (out.at(-1)?.k !== 'require') {
      out.push(requireStmt(raw('true')));
    }
    return {
      member: { k: 'fn', visibility: 'public', isStatic: false, name: scryptName(name), params: all, returns: null, body: out },
      loopCounter,
    };
  }

  // internal, private and library functions
  let result: SExpr;
  if (finalValue) result = returnedOr(finalValue);
  else if (named) result = returnedOr(raw(scryptName(named)));
  else if (f.middleReturn) result = raw('ret');
  else result = retType ? (p.defaultOf(retType) ?? raw('0')) : raw('true');
  const visibility = fn.visibility === 'private' ? 'private' : '';
  return {
    member: {
      k: 'fn',
      visibility,
      isStatic: kind === 'library',
      name: internalCopy ?? scryptName(name),
      params,
      returns: retTypeText,
      body: [...prelude, ...statements.takeChecks(0), ...body, { k: 'return', e: result }],
    },
    loopCounter,
  };
}

/**
 * The entry point of a public function the contract's code also calls (called-publics.ts): it calls the
 * function's internal copy with its own parameters and checks what it returns against `retVal` (or that it
 * returned `true`, for a function that returns nothing), then keeps the state, as any public function does.
 */
export function publicEntry(c: ContractInfo, fn: FunctionDefinition, copy: Extract<SMember, { k: 'fn' }>): SMember {
  const returns = fn.returnParameters ?? [];
  const named = returns.length === 1 ? returns[0].name : null;
  const params = [...copy.params];
  const result = call(
    `this.${copy.name}`,
    copy.params.map((x) => raw(x.name)),
  );
  const body: SStmt[] = [];
  if (c.initBalance && c.stateful) body.push(requireStmt(call('this.checkInitBalance', [raw('txPreimage')])));
  if (returns.length === 1 && copy.returns) {
    const expected = named ? `_${scryptName(named)}` : 'retVal';
    params.push({ type: copy.returns, name: expected });
    body.push(requireStmt(bin('==', result, raw(expected))));
  } else body.push(requireStmt(result));
  if (c.stateful) {
    params.push(PREIMAGE);
    body.push(requireStmt(call('this.propagateState', [raw('txPreimage'), call('SigHash.value', [raw('txPreimage')])])));
  }
  return { k: 'fn', visibility: 'public', isStatic: false, name: scryptName(fn.name!), params, returns: null, body };
}

/** Each mapping entry's value and index parameters, by value name. */
function entryParams(p: ProgramContext, f: FunctionState): SParam[] {
  return sortedEntries(f).flatMap((e) => [
    { type: p.typeText(e.valueType), name: e.valueName },
    { type: 'int', name: e.indexName },
  ]);
}

function sortedEntries(f: FunctionState) {
  return [...f.entries.values()].sort((a, b) => (a.valueName < b.valueName ? -1 : a.valueName > b.valueName ? 1 : 0));
}

/**
 * Two entries of one map under different key expressions (`balances[msg.sender]`, `balances[to]`) are two
 * value parameters, each checked against the map and each stored back. When the keys are equal when it runs
 * (a transfer to oneself) they are one entry, and the second `set` overwrites the first: `from -= v; to += v`
 * would store the old balance plus `v`, minting it. Where one of the two is written, the call is refused
 * when their keys are equal; two literal keys cannot be equal and need no check. (No log: `errorLogs` is
 * what the public service's clients read for failures, and an ERC-20 must come back with none; the
 * `require` stands in the sCrypt, and the support table in docs says so.)
 */
function aliasGuards(f: FunctionState): SStmt[] {
  const entries = sortedEntries(f);
  const out: SStmt[] = [];
  const text = (e: SExpr) => JSON.stringify(e);
  for (let i = 0; i < entries.length; i++)
    for (let j = i + 1; j < entries.length; j++) {
      const [a, b] = [entries[i], entries[j]];
      if (text(a.map) !== text(b.map) || (!a.written && !b.written) || (isLiteralKey(a.key) && isLiteralKey(b.key))) continue;
      out.push(requireStmt(keysDiffer(a.key, b.key)));
    }
  return out;
}

/**
 * `a != b` for two keys. A nested mapping's key is a `MapKeyST` struct, written as a literal `{x, y}` or kept
 * in a local (when the function changes a name it is made of): compared field by field, since an untyped
 * struct literal cannot stand in a comparison.
 */
function keysDiffer(a: SExpr, b: SExpr): SExpr {
  const width = a.k === 'struct' ? a.fields.length : b.k === 'struct' ? b.fields.length : 0;
  if (!width) return bin('!=', a, b);
  const fields = (e: SExpr) => (e.k === 'struct' ? e.fields : Array.from({ length: width }, (_, i) => member(e, `key${i}`)));
  const [fa, fb] = [fields(a), fields(b)];
  return fa.map((f, i) => bin('!=', f, fb[i])).reduce((l, r) => bin('||', l, r));
}

const isLiteralKey = (e: SExpr): boolean =>
  e.k === 'struct' ? e.fields.every(isLiteralKey) : e.k === 'raw' && /^(-?\d+|true|false|b'[0-9a-f]*')$/.test(e.text);

/** `set` for each entry the function wrote. */
function writeBacks(f: FunctionState): SStmt[] {
  return sortedEntries(f)
    .filter((e) => e.written)
    .map((e) => requireStmt(call(member(e.map, 'set'), [{ k: 'struct', fields: [e.key, raw(e.indexName)] }, raw(e.valueName)])));
}
