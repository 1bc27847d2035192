import type { BaseASTNode, Expression, FunctionCall, IndexAccess, MemberAccess } from '@solidity-parser/parser/dist/src/ast-types.js';
import type { ContractInfo, FunctionState, MapEntry, ProgramContext, Scope } from './context.js';
import { spanOf, type Span } from './logs.js';
import { scryptName } from './names.js';
import { bin, call, member, paren, raw, type SExpr } from './sast.js';
import { isCastType } from './type-names.js';
import type { SolType } from './types.js';

/** Everything an expression needs to be transpiled: the program, the contract, the function (none for constants) and the names in scope. */
export interface Cx {
  p: ProgramContext;
  c: ContractInfo;
  f: FunctionState | null;
  scope: Scope;
  /** Index expressions replaced by a loop's induction variable (writes at run-time indices, see Statements). */
  indexVars?: Map<Expression, string>;
  /** The expression of the statement being transpiled: the one place an assignment may stand (sCrypt assigns in statements only). */
  statement?: Expression;
}

/** Runs `run` with `e` as a statement of its own (`x = 1;`, the `i += 2` of a `for`): the one place where `e` may be an assignment. */
export function asStatement<T>(cx: Cx, e: Expression, run: () => T): T {
  const previous = cx.statement;
  cx.statement = e;
  try {
    return run();
  } finally {
    cx.statement = previous;
  }
}

/** Built-in functions sCrypt has no counterpart for: a call is reported and left out, its arguments unvisited. */
const UNSUPPORTED_CALLS = new Set([
  'assert',
  'keccak256',
  'sha3',
  'ecrecover',
  'addmod',
  'blockhash',
  'mulmod',
  'revert',
  'selfdestruct',
  'suicide',
  'type',
  'gasleft',
  'payable',
]);
/** Globals of the EVM whose every member is unsupported. */
const EVM_GLOBALS = new Set(['block', 'tx', 'abi']);
const SHIFTS = new Set(['<<', '>>', '<<=', '>>=']);
const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

/**
 * Transpiles one expression, or returns null after logging why it cannot be (its parent is then left
 * out too, as sol2scrypt does). `write` marks the target of an assignment, `++` or `--`: a mapping
 * entry written in a public function is stored back with `set` at its end.
 */
export function expr(cx: Cx, node: Expression | BaseASTNode, write = false): SExpr | null {
  const { p } = cx;
  const n = node as Expression;
  switch (n.type) {
    case 'NumberLiteral':
      return numberLiteral(cx, n);
    case 'BooleanLiteral':
      return raw(n.value ? 'true' : 'false');
    case 'HexLiteral':
      return raw(`b'${n.parts.join('').replace(/_/g, '').toLowerCase()}'`);
    case 'StringLiteral':
      return raw(n.parts.length === 1 && !n.isUnicode[0] ? p.text(n) : JSON.stringify(n.value));
    case 'Identifier': {
      const sym = cx.scope.lookup(n.name);
      if (sym?.kind === 'alias' && sym.target) return expr(cx, sym.target, write);
      return identifier(cx, n.name, n);
    }
    case 'MemberAccess':
      return memberAccess(cx, n, write);
    case 'IndexAccess':
      return indexAccess(cx, n, write);
    case 'UnaryOperation': {
      if (n.operator === 'delete' || n.operator === '+') {
        const start = n.isPrefix ? spanOf(n).start : spanOf(n).end - n.operator.length;
        p.error({ start, end: start + n.operator.length }, `unsupported unary operator: \`${n.operator}\``);
        return null;
      }
      const e = expr(cx, n.subExpression, n.operator === '++' || n.operator === '--');
      if (n.operator === '++' || n.operator === '--') countAssignment(cx, n.subExpression);
      return e && { k: 'unary', op: n.operator, e, postfix: !n.isPrefix };
    }
    case 'BinaryOperation': {
      if (n.operator === '**') {
        p.error(operatorSpan(p, n.left, n.right, n.operator), 'unsupported binary operator: `**`');
        return null;
      }
      if (ASSIGNMENTS.has(n.operator) && n.left.type === 'TupleExpression' && !n.left.isArray) {
        p.error(n, 'unsupported tuple expression assignment');
        return null;
      }
      if (ASSIGNMENTS.has(n.operator) && cx.statement !== n) {
        p.error(n, `unsupported assignment inside an expression: \`${p.text(n)}\``);
        return null;
      }
      if (SHIFTS.has(n.operator) && !isConstant(cx, n.right) && typeOf(cx, n.left)?.k !== 'bytes') {
        p.logs.warning(
          operatorSpan(p, n.left, n.right, n.operator),
          `a shift by a run-time amount: it compiles to a multiplication or division by 2ⁿ worked out when the script runs, which costs more script than a constant amount (and the spend fails if the amount is negative); shift by a constant where you can`,
        );
      }
      // A hex number beside a byte string (`b |= 0x00ff`, `h == 0x01`) is bytes too; a shift's amount stays a number.
      const shift = SHIFTS.has(n.operator);
      const l = shift
        ? expr(cx, n.left, ASSIGNMENTS.has(n.operator))
        : valueFor(cx, typeOf(cx, n.right), n.left, ASSIGNMENTS.has(n.operator));
      const r = n.operator === '=' || !shift ? valueFor(cx, typeOf(cx, n.left), n.right) : expr(cx, n.right);
      if (ASSIGNMENTS.has(n.operator)) countAssignment(cx, n.left);
      return l && r && bin(n.operator, l, r);
    }
    case 'Conditional': {
      const c = expr(cx, n.condition);
      const t = n.trueExpression && expr(cx, n.trueExpression);
      const e = n.falseExpression && expr(cx, n.falseExpression);
      return c && t && e && { k: 'ternary', c, t, e };
    }
    case 'TupleExpression': {
      if (n.isArray) {
        const items = n.components.map((x) => (x ? expr(cx, x) : null));
        return items.every(Boolean) ? { k: 'array', items: items as SExpr[] } : null;
      }
      if (n.components.length === 1 && n.components[0]) {
        const e = expr(cx, n.components[0], write);
        return e && paren(e);
      }
      p.error(n, `unsupported tuple expression: \`${p.text(n)}\``);
      return null;
    }
    case 'FunctionCall':
      return functionCall(cx, n);
    case 'NewExpression':
      p.error(n, 'unsupported new expression');
      return null;
    case 'ElementaryTypeName':
      p.error(n, `unsupported elementary type name expression: \`${p.text(n)}\``);
      return null;
    default:
      p.error(n, `unsupported expression: \`${p.text(n)}\``);
      return null;
  }
}

function numberLiteral(cx: Cx, n: Extract<Expression, { type: 'NumberLiteral' }>): SExpr | null {
  const { p } = cx;
  if (n.subdenomination) {
    p.error(n, `unsupported number unit: \`${n.subdenomination}\``);
    return null;
  }
  const text = n.number.replace(/_/g, '');
  // A hex literal of 40 digits is an address in Solidity (it must pass the address checksum): its 20 bytes.
  if (/^0x[0-9a-f]{40}$/i.test(text)) return addressLiteral(text.slice(2).toLowerCase());
  if (/^0x/i.test(text)) return raw(`0x${text.slice(2).toLowerCase()}`);
  const m = /^(\d+)(?:[eE](\d+))?$/.exec(text);
  if (!m) {
    p.error(n, `unsupported number literal expression: \`${p.text(n)}\``);
    return null;
  }
  return raw((BigInt(m[1]) * 10n ** BigInt(m[2] ?? 0)).toString());
}

function identifier(cx: Cx, name: string, at: BaseASTNode): SExpr | null {
  const sym = cx.scope.lookup(name);
  // `now` is old Solidity's `block.timestamp`.
  if (name === 'this' || (name === 'now' && !sym)) {
    cx.p.error(at, `unsupported expression: \`${name}\``);
    return null;
  }
  const printed = scryptName(name);
  return raw(sym && (sym.kind === 'state' || sym.kind === 'immutable') ? `this.${printed}` : printed);
}

function memberAccess(cx: Cx, n: MemberAccess, write: boolean): SExpr | null {
  const { p } = cx;
  const base = n.expression;
  const name = n.memberName;
  if (base.type === 'Identifier' && !cx.scope.lookup(base.name)) {
    if (base.name === 'msg' && name === 'sender') {
      if (cx.f && !cx.f.senderAt) cx.f.senderAt = spanOf(n);
      return raw('msgSender');
    }
    if (base.name === 'msg' && name === 'value') {
      if (cx.f && !cx.f.valueAt) cx.f.valueAt = spanOf(n);
      return raw('msgValue');
    }
    if (base.name === 'msg' || EVM_GLOBALS.has(base.name)) {
      p.error(n, `unsupported expression: \`${p.text(n)}\``);
      return null;
    }
    if (base.name === 'this') return raw(`this.${scryptName(name)}`);
  }
  const baseType = typeOf(cx, base);
  if ((name === 'transfer' || name === 'send') && base.type === 'Identifier' && !p.libraries.has(base.name)) {
    p.error(n, `unsupported expression: \`${p.text(n)}\``);
    return null;
  }
  // An address is a PubKeyHash in sCrypt, which has no members: `a.balance`, `msg.sender.transfer(v)`, `a.call(…)`.
  if (baseType?.k === 'address') {
    p.error(n, `unsupported expression: \`${p.text(n)}\``);
    return null;
  }
  // A state array the contract pushes to: its length is its counter.
  const pushed = name === 'length' && base.type === 'Identifier' ? pushedArray(cx, base.name) : undefined;
  if (pushed) return raw(`this.${pushed.counter}`);
  // sCrypt arrays have a fixed size: `a.length` is that size.
  if (name === 'length' && baseType?.k === 'array') return raw(String(baseType.size));
  if (name === 'length' && (baseType?.k === 'bytes' || baseType?.k === 'string')) {
    const b = expr(cx, base);
    return b && call('len', [b]);
  }
  const o = expr(cx, base, write);
  return o && member(o, scryptName(name));
}

/** The length counter of a state array the contract pushes to (not shadowed by a local). */
export function pushedArray(cx: Cx, name: string): { size: number; counter: string } | undefined {
  return cx.scope.lookup(name)?.kind === 'state' ? cx.c.pushed?.get(name) : undefined;
}

/** The root of `m[a][b]…` with its index expressions, outermost key first. */
function indexChain(n: IndexAccess): { root: Expression; indexes: (Expression | null)[] } {
  const indexes: (Expression | null)[] = [];
  let e: Expression = n;
  while (e.type === 'IndexAccess') {
    indexes.unshift(e.index);
    e = e.base;
  }
  return { root: e, indexes };
}

function indexAccess(cx: Cx, n: IndexAccess, write: boolean): SExpr | null {
  const { root, indexes } = indexChain(n);
  const rootName =
    root.type === 'Identifier'
      ? root.name
      : root.type === 'MemberAccess' && root.expression.type === 'Identifier' && root.expression.name === 'this'
        ? root.memberName
        : null;
  const sym = rootName ? cx.scope.lookup(rootName) : undefined;
  if (rootName && sym?.type.k === 'mapping' && indexes.length >= sym.type.keys.length && indexes.every(Boolean)) {
    const keyCount = sym.type.keys.length;
    // Writing to a part of the value (`m[k].field = …`, `m[k][0] = …`) writes the entry.
    let e = mappingValue(cx, n, rootName, sym.kind === 'state', sym.type, indexes.slice(0, keyCount) as Expression[], write);
    for (const i of indexes.slice(keyCount) as Expression[]) {
      const ix = expr(cx, i);
      e = e && ix && { k: 'index', o: e, i: ix };
    }
    return e;
  }
  if (!n.index) {
    cx.p.error(n, `unsupported expression: \`${cx.p.text(n)}\``);
    return null;
  }
  const baseType = typeOf(cx, n.base);
  if (baseType?.k === 'bytes' || baseType?.k === 'string') return byteAt(cx, n, n.index, write);
  const o = expr(cx, n.base, write);
  const induction = cx.indexVars?.get(n);
  const i = induction ? raw(induction) : expr(cx, n.index);
  return o && i && { k: 'index', o, i };
}

/**
 * `b[i]` of a byte string is the one-byte slice `b[i : i + 1]` (sCrypt indexes no bytes). A byte string is
 * a value in sCrypt: one of its bytes cannot be written, and an index with effects would run twice.
 */
function byteAt(cx: Cx, n: IndexAccess, index: Expression, write: boolean): SExpr | null {
  if (write || hasEffects(index)) {
    cx.p.error(n, `unsupported ${write ? 'write to a byte of a byte string' : 'byte index with side effects'}: \`${cx.p.text(n)}\``);
    return null;
  }
  const o = expr(cx, n.base);
  const i = expr(cx, index);
  if (!o || !i) return null;
  const next = i.k === 'raw' && /^\d+$/.test(i.text) ? raw(String(BigInt(i.text) + 1n)) : bin('+', i, raw('1'));
  return { k: 'slice', o, from: i, to: next };
}

/**
 * `m[k]` in a public function or constructor: the caller passes the entry's value and its index in the
 * map's sorted storage, and the function checks them against the map before first use (a missing key
 * must come with the value type's default). Entries are named after the key's *expression*, as
 * sol2scrypt names them: `balances[msg.sender]` is `balances_msgSender` wherever it appears.
 */
function mappingValue(
  cx: Cx,
  at: IndexAccess,
  mapName: string,
  isState: boolean,
  type: Extract<SolType, { k: 'mapping' }>,
  keys: Expression[],
  write: boolean,
): SExpr | null {
  const { p, f } = cx;
  const printedKeys = keys.map((k) => expr(cx, k));
  if (!printedKeys.every(Boolean)) return null;
  const mapText = `${isState ? 'this.' : ''}${scryptName(mapName)}`;
  if (!f || !f.canUseMaps) {
    if (f && !f.mapAt) f.mapAt = spanOf(at);
    return (printedKeys as SExpr[]).reduce<SExpr>((o, i) => ({ k: 'index', o, i }), raw(mapText));
  }
  const valueName = [mapName.replaceAll('$', '_'), ...keys.map((k) => keyName(p, k))].join('_');
  let entry = f.entries.get(valueName);
  const depth = Math.max(0, ...keys.map((k) => keyDepth(cx, k)));
  // One value parameter stands for one entry, stored back at the function's end: a key made of a name
  // declared in a block or loop (depth > 1, the body's top level is 1) is out of scope there, and in a loop
  // would name a different entry on each iteration.
  if (depth > 1) {
    p.error(at, `unsupported mapping access with a key declared inside a block or loop: \`${p.text(at)}\``);
    return null;
  }
  // After an early return the entry's check would sit inside `if (!returned)` and could be skipped while its
  // `set` runs, storing an unchecked value; only keys of parameters and properties (checked before the body) are safe.
  if (!entry && depth === 1 && f.pastReturn) {
    p.error(at, `unsupported mapping access after an early return with a key declared in the function: \`${p.text(at)}\``);
    return null;
  }
  // One entry per key expression is sound only while the names the key is made of keep their values: after
  // `k = k + 1`, or on a loop's next turn when the loop changes `k`, `m[k]` is another entry of the map, while
  // the rewrite would still read and store the first one. Refused rather than compiled to other code.
  const keyNames = [...new Set(keys.flatMap((k) => namesIn(k)))];
  const inLoop = keyNames.find((n) => f.loopAssigned.some((assigned) => assigned.has(n)));
  if (inLoop) {
    p.error(
      at,
      `unsupported mapping access in a loop that changes its key \`${inLoop}\`: \`${p.text(at)}\` would be another entry on each turn`,
    );
    return null;
  }
  const rekeyed = entry && keyNames.find((n) => (f.assignments.get(n) ?? 0) !== (entry!.keyNames.get(n) ?? 0));
  if (rekeyed) {
    p.error(
      at,
      `unsupported mapping access after its key \`${rekeyed}\` changed: \`${p.text(at)}\` is another entry than where it was first used; use a separate variable for the new key`,
    );
    return null;
  }
  if (!entry) {
    const key: SExpr = printedKeys.length === 1 ? (printedKeys[0] as SExpr) : { k: 'struct', fields: printedKeys as SExpr[] };
    // `m[richest] += v; richest = msg.sender;`: the entry stays the one of the key's value where it was first used.
    const changing = keys.some((k) => namesIn(k).some((n) => f.assigned.has(n)));
    const snapshot = changing
      ? { type: printedKeys.length === 1 ? p.typeText(type.keys[0]) : p.keyStructName(type.keys), name: `${valueName}_key`, init: key }
      : undefined;
    entry = {
      valueName,
      indexName: f.nextIndexName(),
      map: raw(mapText),
      key: snapshot ? raw(snapshot.name) : key,
      valueType: type.value,
      written: false,
      depth,
      snapshot,
      keyNames: new Map(keyNames.map((n) => [n, f.assignments.get(n) ?? 0])),
    };
    f.entries.set(valueName, entry);
    f.pending.push(entry);
  }
  if (write) entry.written = true;
  return raw(valueName);
}

/** Notes that the name at the root of an assignment's target (`k`, `s.f`, `a[i]`) changed here. */
function countAssignment(cx: Cx, target: Expression): void {
  const root = cx.f && assignedRoot(target);
  if (root) cx.f!.assignments.set(root, (cx.f!.assignments.get(root) ?? 0) + 1);
}

/** How a key expression names its mapping entry: `msg.sender` → `msgSender`, `a.b` → `a_b`, `this.x` → `x`, literals by value. */
function keyName(p: ProgramContext, k: Expression): string {
  switch (k.type) {
    case 'Identifier':
      return k.name.replaceAll('$', '_');
    case 'MemberAccess':
      if (k.expression.type === 'Identifier' && k.expression.name === 'msg')
        return `msg${k.memberName[0].toUpperCase()}${k.memberName.slice(1)}`;
      if (k.expression.type === 'Identifier' && k.expression.name === 'this') return k.memberName;
      return `${keyName(p, k.expression)}_${k.memberName}`;
    case 'IndexAccess':
      return k.index ? `${keyName(p, k.base)}_${keyName(p, k.index)}` : 'key';
    case 'NumberLiteral':
      return /^0x/i.test(k.number) ? k.number.toLowerCase() : k.number.replace(/_/g, '');
    case 'BooleanLiteral':
      return k.value ? 'True' : 'False';
    case 'HexLiteral':
      return k.parts.join('').toLowerCase();
    case 'StringLiteral':
      return Buffer.from(k.value, 'utf8').toString('hex');
    case 'TupleExpression':
      return k.components.length === 1 && k.components[0] ? keyName(p, k.components[0] as Expression) : 'key';
    default:
      return (
        p
          .text(k)
          .replace(/[^A-Za-z0-9_]+/g, '_')
          .replace(/^_+|_+$/g, '') || 'key'
      );
  }
}

/** The deepest block a name used in the key was declared in: its check cannot be placed outside that block. */
function keyDepth(cx: Cx, k: BaseASTNode): number {
  let depth = 0;
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const o = node as { type?: string; name?: string };
    if (o.type === 'Identifier' && o.name) {
      const sym = cx.scope.lookup(o.name);
      if (sym) depth = Math.max(depth, sym.depth);
      return;
    }
    for (const [key, v] of Object.entries(o)) if (key !== 'range' && key !== 'loc') visit(v);
  };
  visit(k);
  return depth;
}

function functionCall(cx: Cx, n: FunctionCall): SExpr | null {
  const { p } = cx;
  const callee = n.expression;
  const castName =
    callee.type === 'ElementaryTypeName'
      ? callee.name
      : callee.type === 'Identifier' && callee.name === 'address' && !cx.scope.lookup('address')
        ? 'address'
        : null;
  if (castName && isCastType(castName)) {
    if (n.arguments.length !== 1) {
      p.error(n, `unsupported function call: \`${p.text(callee)}\``);
      return null;
    }
    const [arg] = n.arguments;
    if (castName === 'address') return toAddress(cx, n, arg);
    const width = /^bytes(\d+)$/.exec(castName);
    // `bytes32(0)`, `bytes4(0x01020304)`: the number's big-endian bytes, as many as the type holds.
    if (width && arg.type === 'NumberLiteral' && !arg.subdenomination) {
      const hex = fixedBytesHex(arg.number, Number(width[1]));
      if (hex !== null) return raw(`b'${hex}'`);
    }
    // An integer and a byte string are different kinds of values in sCrypt: its num2bin/bin2num are
    // little-endian and signed, Solidity's conversions big-endian.
    const from = typeOf(cx, arg);
    const to = /^u?int\d*$/.test(castName) ? 'int' : /^(bytes\d*|byte|string)$/.test(castName) ? 'bytes' : null;
    if (
      (to === 'int' && (from?.k === 'bytes' || from?.k === 'string')) ||
      (to === 'bytes' && (from?.k === 'int' || arg.type === 'NumberLiteral'))
    ) {
      p.error(n, `unsupported conversion between integer and bytes: \`${p.text(n)}\``);
      return null;
    }
    if (
      to === 'int' &&
      (from?.k === 'address' || (arg.type === 'NumberLiteral' && /^0x[0-9a-f]{40}$/i.test(arg.number.replace(/_/g, ''))))
    ) {
      p.error(n, `unsupported conversion from address to integer: \`${p.text(n)}\``);
      return null;
    }
    // Casts between Solidity's integer and byte widths have no sCrypt counterpart: the value is used as it is.
    return expr(cx, arg);
  }
  if (callee.type === 'Identifier' && !cx.scope.lookup(callee.name)) {
    const name = callee.name;
    if (UNSUPPORTED_CALLS.has(name)) {
      p.error(n, `unsupported function call: \`${name}\``);
      return null;
    }
    // `Token(a)`, `IERC20(t)`, `Status(i)`: a conversion to a contract, interface or enum type (the way to call another contract).
    if (p.foreignTypes.has(name) && !p.structs.has(name)) {
      p.error(n, `unsupported conversion to ${p.contractTypes.has(name) ? 'contract' : 'enum'} type: \`${p.text(n)}\``);
      return null;
    }
    const struct = p.structs.get(name);
    if (struct)
      return structLiteral(
        cx,
        n,
        struct.fields.map((f) => f.name),
      );
    const copy = cx.c.internalCopies?.get(name);
    if (copy) {
      const args = argsOf(cx, n, `${cx.c.name}.${name}`);
      return args && call(`this.${copy}`, args);
    }
    if (cx.c.publics?.has(name)) {
      p.error(n, `unsupported call of public function \`${name}\``);
      return null;
    }
    const args = argsOf(cx, n, cx.c.functions.has(name) ? `${cx.c.name}.${name}` : null);
    if (!args) return null;
    if (cx.c.functions.has(name)) return call(cx.c.isLibrary ? scryptName(name) : `this.${scryptName(name)}`, args);
    return call(scryptName(name), args);
  }
  if (callee.type === 'MemberAccess' && (callee.memberName === 'push' || callee.memberName === 'pop')) {
    p.error(n, `unsupported function call: \`${p.text(callee)}\``);
    return null;
  }
  const base = callee.type === 'MemberAccess' && callee.expression.type === 'Identifier' ? callee.expression.name : null;
  // `this.f()` is an external call of the contract's own public function, which is an entry point in sCrypt:
  // it reaches the function's internal copy where there is one.
  const onThis = callee.type === 'MemberAccess' && base === 'this' && !cx.scope.lookup('this') ? callee.memberName : null;
  const thisCopy = onThis && cx.c.internalCopies?.get(onThis);
  if (thisCopy) {
    const args = argsOf(cx, n, `${cx.c.name}.${onThis}`);
    return args && call(`this.${thisCopy}`, args);
  }
  // `this.x()`, the getter of a public state variable (not a mapping or an array): the value of `x`.
  if (onThis && !n.arguments.length && cx.c.plainGetters?.has(onThis) && !cx.c.functions.has(onThis)) return identifier(cx, onThis, callee);
  if (onThis && cx.c.publics?.has(onThis)) {
    p.error(n, `unsupported call of public function \`${onThis}\``);
    return null;
  }
  const qualified = contractQualifiedCall(cx, n, base);
  if (qualified !== undefined) return qualified;
  if (callee.type === 'NewExpression') {
    if (
      callee.typeName.type === 'ElementaryTypeName' &&
      (callee.typeName.name === 'bytes' || callee.typeName.name === 'string') &&
      n.arguments.length === 1
    ) {
      const size = expr(cx, n.arguments[0]);
      return size && call('num2bin', [raw('0'), size]);
    }
    p.error(callee, 'unsupported new expression');
    return null;
  }
  if (callee.type === 'NameValueExpression') {
    p.error(n, `unsupported function call: \`${p.text(callee)}\``);
    return null;
  }
  const f = expr(cx, callee);
  const library = base && callee.type === 'MemberAccess' && p.libraries.has(base) && !cx.scope.lookup(base);
  const args = f && argsOf(cx, n, library ? `${base}.${callee.memberName}` : null);
  return f && args && call(f, args);
}

/**
 * `C.f(…)`, a function named through a contract. Through the contract being transpiled it is an internal
 * call, `this.f(…)` as `f(…)` is (sol2scrypt: internal call `f4(a)` → `this.f4(a)`), unless `f` is public:
 * then it is refused as `f(…)` is. Through another contract it reaches that contract (sol2scrypt: calling
 * other contracts is unsupported). Either way `C.f(…)` itself would not compile: C's functions are not static.
 * Undefined when the call is not of that form.
 */
function contractQualifiedCall(cx: Cx, n: FunctionCall, base: string | null): SExpr | null | undefined {
  const { p } = cx;
  const callee = n.expression;
  if (!base || callee.type !== 'MemberAccess' || !p.contractTypes.has(base) || cx.scope.lookup(base)) return undefined;
  const name = callee.memberName;
  if (base !== cx.c.name || cx.c.isLibrary) {
    // Only a function of that contract: its structs and enums keep their own handling and messages.
    if (!p.functionParams.has(`${base}.${name}`)) return undefined;
    p.error(n, `unsupported function call: \`${p.text(callee)}\``);
    return null;
  }
  const copy = cx.c.internalCopies?.get(name);
  if (cx.c.publics?.has(name) && !copy) {
    p.error(n, `unsupported call of public function \`${name}\``);
    return null;
  }
  if (!cx.c.functions.has(name)) return undefined;
  const args = argsOf(cx, n, `${cx.c.name}.${name}`);
  return args && call(`this.${copy ?? scryptName(name)}`, args);
}

/**
 * A call's arguments in the callee's parameter order. Named arguments (`f({b: 1, a: 2})`) are put in the
 * order of the parameters of `callee` (`<contract or library>.<function>`), which must be known.
 */
function argsOf(cx: Cx, n: FunctionCall, callee: string | null): SExpr[] | null {
  let given: Expression[] = n.arguments;
  if (n.names.length) {
    const params = callee ? cx.p.functionParams.get(callee) : undefined;
    const names = new Map(n.names.map((name, i) => [name, n.arguments[i]]));
    const ordered = params?.map((name) => (name ? names.get(name) : undefined));
    if (!ordered || ordered.length !== names.size || !ordered.every(Boolean)) {
      cx.p.error(n, `unsupported function call with named arguments: \`${cx.p.text(n.expression)}\``);
      return null;
    }
    given = ordered as Expression[];
  }
  const args = given.map((a) => expr(cx, a));
  return args.every(Boolean) ? (args as SExpr[]) : null;
}

/**
 * `address(x)`: a number is the 20 bytes of the address it names (`address(0)`, `address(0x…01)`); an
 * address stays as it is; `bytes20` becomes a `Ripemd160`; an integer has no counterpart (a PubKeyHash is not a number).
 */
function toAddress(cx: Cx, n: FunctionCall, arg: Expression): SExpr | null {
  const { p } = cx;
  if (arg.type === 'NumberLiteral') {
    const hex = arg.subdenomination ? null : addressHex(arg.number);
    if (hex === null) {
      p.error(n, `unsupported conversion to address: \`${p.text(n)}\``);
      return null;
    }
    return addressLiteral(hex);
  }
  const t = typeOf(cx, arg);
  if (t?.k === 'int') {
    p.error(n, `unsupported conversion from integer to address: \`${p.text(n)}\``);
    return null;
  }
  const e = expr(cx, arg);
  return e && (t?.k === 'bytes' ? call('Ripemd160', [e]) : e);
}

/** The 40 hex digits of an address given as a number literal, or null when it is not one (negative, fractional or too large). */
function addressHex(text: string): string | null {
  const digits = text.replace(/_/g, '');
  let value: bigint;
  try {
    value = BigInt(/^0x/i.test(digits) ? digits : /^\d+$/.test(digits) ? digits : 'x');
  } catch {
    return null;
  }
  return value < 0n || value >= 1n << 160n ? null : value.toString(16).padStart(40, '0');
}

/** A non-negative number literal as `size` big-endian bytes in hex, or null when it does not fit. */
function fixedBytesHex(text: string, size: number): string | null {
  const digits = text.replace(/_/g, '');
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(digits) || size < 1 || size > 32) return null;
  const value = BigInt(digits);
  return value >= 1n << BigInt(8 * size) ? null : value.toString(16).padStart(2 * size, '0');
}

const addressLiteral = (hex: string): SExpr => call('Ripemd160', [raw(`b'${hex}'`)]);

/** `S(a, b)` and `S({x: a, y: b})` are the struct literal `{a, b}`, named fields put in declaration order. */
function structLiteral(cx: Cx, n: FunctionCall, fields: string[]): SExpr | null {
  const byName = n.names.length ? new Map(n.names.map((name, i) => [name, n.arguments[i]])) : null;
  const ordered = byName ? fields.map((f) => byName.get(f)) : n.arguments;
  if (ordered.some((a) => !a) || ordered.length !== fields.length) {
    cx.p.error(n, `unsupported function call: \`${cx.p.text(n.expression)}\``);
    return null;
  }
  const values = ordered.map((a) => expr(cx, a as Expression));
  return values.every(Boolean) ? { k: 'struct', fields: values as SExpr[] } : null;
}

/** The operator token between two operands (sol2scrypt reports operators at the token, not the whole expression). */
function operatorSpan(p: ProgramContext, left: BaseASTNode, right: BaseASTNode, op: string): Span {
  const from = spanOf(left).end;
  const at = p.source.text.indexOf(op, from);
  const start = at >= 0 && at < spanOf(right).start ? at : from;
  return { start, end: start + op.length };
}

/** What little typing the transpiler needs: whether `x` is an address, an array (and its size), a struct or a mapping. */
export function typeOf(cx: Cx, n: Expression): SolType | null {
  switch (n.type) {
    case 'Identifier':
      return cx.scope.lookup(n.name)?.type ?? null;
    case 'MemberAccess': {
      if (n.expression.type === 'Identifier' && n.expression.name === 'this') return cx.scope.lookup(n.memberName)?.type ?? null;
      if (n.expression.type === 'Identifier' && n.expression.name === 'msg' && n.memberName === 'sender') return { k: 'address' };
      const base = typeOf(cx, n.expression);
      if (base?.k !== 'struct') return null;
      return cx.p.structs.get(base.name)?.fields.find((f) => f.name === n.memberName)?.type ?? null;
    }
    case 'IndexAccess': {
      const base = typeOf(cx, n.base);
      if (base?.k === 'array') return base.elem;
      if (base?.k === 'mapping') return base.keys.length === 1 ? base.value : { k: 'mapping', keys: base.keys.slice(1), value: base.value };
      return null;
    }
    case 'TupleExpression':
      return n.components.length === 1 && n.components[0] ? typeOf(cx, n.components[0] as Expression) : null;
    case 'FunctionCall':
      // A cast: `bytes(s)`, `uint(x)`, `address(a)`.
      if (n.expression.type === 'ElementaryTypeName') {
        const name = n.expression.name;
        return /^(bytes\d*|byte|string)$/.test(name)
          ? { k: 'bytes' }
          : /^u?int\d*$/.test(name)
            ? { k: 'int' }
            : name === 'address'
              ? { k: 'address' }
              : name === 'bool'
                ? { k: 'bool' }
                : null;
      }
      return n.expression.type === 'Identifier' && n.expression.name === 'address' ? { k: 'address' } : null;
    default:
      return null;
  }
}

export type { MapEntry };

/** A literal, or a constant's name: usable where sCrypt needs a compile-time constant. */
export function isConstant(cx: Cx, e: Expression): boolean {
  if (e.type === 'NumberLiteral') return !e.subdenomination;
  if (e.type === 'Identifier') return cx.scope.lookup(e.name)?.kind === 'constant';
  if (e.type === 'TupleExpression') return e.components.length === 1 && !!e.components[0] && isConstant(cx, e.components[0] as Expression);
  if (e.type === 'UnaryOperation') return e.operator === '-' && isConstant(cx, e.subExpression);
  if (e.type === 'BinaryOperation')
    return ['+', '-', '*', '/', '%', '<<', '>>'].includes(e.operator) && isConstant(cx, e.left) && isConstant(cx, e.right);
  return false;
}

/**
 * A value for a place of type `t`. A hex number given to a bytes type (`bytes4 m = 0xCAFEBABE`) is those
 * bytes in sCrypt, where a number is not bytes.
 */
export function valueFor(cx: Cx, t: SolType | null, e: Expression, write = false): SExpr | null {
  if ((t?.k === 'bytes' || t?.k === 'string') && e.type === 'NumberLiteral' && !e.subdenomination && /^0x/i.test(e.number)) {
    const hex = e.number.slice(2).replace(/_/g, '').toLowerCase();
    return raw(`b'${hex.length % 2 ? `0${hex}` : hex}'`);
  }
  return expr(cx, e, write);
}

/** The names an expression reads (`this.x` counts as `x`). */
export function namesIn(e: unknown): string[] {
  const out: string[] = [];
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as { type?: string; name?: string; memberName?: string; expression?: { type?: string; name?: string } };
    if (o.type === 'Identifier' && o.name) out.push(o.name);
    if (o.type === 'MemberAccess' && o.expression?.type === 'Identifier' && o.expression.name === 'this' && o.memberName)
      out.push(o.memberName);
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v);
  };
  visit(e);
  return out;
}

/** Every name the body assigns to (`x = …`, `x += …`, `x++`, `x.f = …`, `x[i] = …`). */
export function assignedNames(body: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as Expression;
    let target: Expression | null = null;
    if (o.type === 'BinaryOperation' && /^[-+*/%&|^<>]*=$/.test(o.operator) && !['==', '!=', '<=', '>='].includes(o.operator))
      target = o.left;
    if (o.type === 'UnaryOperation' && (o.operator === '++' || o.operator === '--' || o.operator === 'delete')) target = o.subExpression;
    const root = target && assignedRoot(target);
    if (root) out.add(root);
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v);
  };
  visit(body);
  return out;
}

/** The name a write lands on: `x`, `this.x`, `x.f`, `x[i]` all change `x`. */
export function assignedRoot(e: Expression): string | null {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberAccess')
    return e.expression.type === 'Identifier' && e.expression.name === 'this' ? e.memberName : assignedRoot(e.expression);
  if (e.type === 'IndexAccess') return assignedRoot(e.base);
  if (e.type === 'TupleExpression' && e.components.length === 1 && e.components[0]) return assignedRoot(e.components[0] as Expression);
  return null;
}

/** Whether evaluating an expression may change something or call out (it is then not evaluated twice). */
export function hasEffects(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  if (Array.isArray(e)) return e.some(hasEffects);
  const o = e as { type?: string; operator?: string };
  if (o.type === 'FunctionCall') return true;
  if (o.type === 'UnaryOperation' && (o.operator === '++' || o.operator === '--' || o.operator === 'delete')) return true;
  if (o.type === 'BinaryOperation' && o.operator && /^[-+*/%&|^<>]*=$/.test(o.operator) && !['==', '!=', '<=', '>='].includes(o.operator))
    return true;
  return Object.entries(o).some(([k, v]) => k !== 'range' && k !== 'loc' && hasEffects(v));
}
