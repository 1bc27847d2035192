import type {
  ContractDefinition,
  FunctionDefinition,
  ModifierDefinition,
  StateVariableDeclaration,
  StructDefinition,
} from '@solidity-parser/parser/dist/src/ast-types.js';
import { Scope, type ContractInfo, type ProgramContext } from './context.js';
import { valueFor } from './expressions.js';
import { calledPublics } from './called-publics.js';
import { isExternallyVisible, publicEntry, transpileFunction, usesMsg } from './functions.js';
import { spanOf, type Span } from './logs.js';
import { scryptName } from './names.js';
import { raw, type SContract, type SMember } from './sast.js';
import { solType } from './type-names.js';
import { UNKNOWN, type SolType } from './types.js';

/** How many times a loop whose count cannot be read off its source may run, unless the source declares `__LoopCount__N`. */
export const DEFAULT_LOOP_BOUND = 10n;

/** A struct, hoisted to the file's top level; a second struct of the same name and mapping fields are errors. */
export function transpileStruct(p: ProgramContext, node: StructDefinition, done: string[]): void {
  if (done.includes(node.name)) {
    p.error(node, `struct \`${node.name}\` already defined`);
    return;
  }
  const fields: { name: string; type: SolType }[] = [];
  for (const m of node.members) {
    if (m.typeName?.type === 'Mapping') {
      // The field's declaration, with its `;`.
      const span = spanOf(m);
      const semi = p.source.text.indexOf(';', span.end);
      p.error({ start: span.start, end: semi >= 0 ? semi + 1 : span.end }, 'unsupported struct definition with mapping field');
      continue;
    }
    const t = m.typeName ? solType(p, m.typeName) : null;
    if (t && m.name) fields.push({ name: m.name, type: t });
  }
  p.structs.set(node.name, { name: node.name, fields });
  done.push(node.name);
}

const isPlainFunction = (fn: FunctionDefinition) => !fn.isConstructor && !fn.isReceiveEther && !fn.isFallback;

/**
 * One contract or library. Members come out in sCrypt's order: properties (`@state` and `const`), static
 * constants, the constructor, the functions, then the generated `propagateState` and `checkInitBalance`.
 * Inheritance, abstract contracts, modifiers, enums and `using` are reported; interfaces are dropped.
 */
export function transpileContract(p: ProgramContext, node: ContractDefinition, structsDone: string[]): SContract | null {
  if (node.kind === 'interface') return null;
  if (node.kind === 'abstract') {
    p.error(node, 'unsupported abstract contract definition');
    return null;
  }
  if (node.baseContracts.length) {
    p.error(node, 'unsupported contract inheritance');
    return null;
  }
  const isLibrary = node.kind === 'library';
  const functions = node.subNodes.filter((n): n is FunctionDefinition => n.type === 'FunctionDefinition');

  const unique: FunctionDefinition[] = [];
  const names = new Set<string>();
  for (const fn of functions) {
    if (isPlainFunction(fn) && fn.name) {
      if (names.has(fn.name)) {
        p.error(fn, `duplicate function name \`${fn.name}\` in contract`);
        continue;
      }
      names.add(fn.name);
    }
    unique.push(fn);
  }

  const stateVars = node.subNodes.filter((n): n is StateVariableDeclaration => n.type === 'StateVariableDeclaration');
  refuseCollidingNames(p, stateVars);
  const ctor = unique.find((fn) => fn.isConstructor);
  // A public state variable has a public getter: `this.count()` calls it from outside, as `this.f()` does a public function.
  const getters = stateVars.flatMap((v) => v.variables.filter((x) => x.visibility === 'public' && x.name).map((x) => x.name as string));
  const info: ContractInfo = {
    name: node.name,
    isLibrary,
    functions: names,
    publics: new Set(
      isLibrary ? [] : [...unique.filter((fn) => fn.name && isExternallyVisible(fn)).map((fn) => fn.name as string), ...getters],
    ),
    internalCopies: isLibrary ? new Map() : calledPublics(unique, stateVars, names),
    plainGetters: new Set(
      stateVars.flatMap((v) =>
        v.variables
          .filter((x) => x.visibility === 'public' && x.name && x.typeName?.type !== 'Mapping' && x.typeName?.type !== 'ArrayTypeName')
          .map((x) => x.name as string),
      ),
    ),
    stateful: stateVars.some((v) => !v.variables[0]?.isDeclaredConst && !v.variables[0]?.isImmutable),
    initBalance: !!ctor && usesMsg(ctor, 'value'),
    loops: [],
  };
  const scope = new Scope();
  const props: SMember[] = [];
  const statics: SMember[] = [];

  for (const sub of node.subNodes) {
    switch (sub.type) {
      case 'StateVariableDeclaration':
        property(p, info, scope, sub as StateVariableDeclaration, props, statics);
        break;
      case 'StructDefinition':
        transpileStruct(p, sub as StructDefinition, structsDone);
        break;
      case 'EnumDefinition': {
        // sol2scrypt's parser starts an enum one column late; its positions are kept.
        const span = spanOf(sub);
        p.error({ start: span.start + 1, end: span.end }, 'unsupported enum definition');
        break;
      }
      case 'ModifierDefinition':
        p.error(sub, 'unsupported modifier definition');
        break;
      case 'UsingForDeclaration':
        p.error(sub, 'unsupported using directive');
        break;
      case 'EventDefinition':
      case 'CustomErrorDefinition':
      case 'FunctionDefinition':
        break;
      default:
        p.error(
          sub,
          `unsupported contract definition: \`${p
            .text(sub)
            .split(/[{;\n]/)[0]
            .trim()}\``,
        );
    }
  }

  info.pushed = pushedArrays(node, scope, props);

  const members: SMember[] = [];
  let loopCounter = 0;
  const ordered = [...(ctor ? [ctor] : []), ...unique.filter((fn) => !fn.isConstructor)];
  for (const fn of ordered) {
    if (fn.isReceiveEther || fn.isFallback) {
      p.error(fn, `unsupported function definition: \`${fn.isReceiveEther ? 'receive' : 'fallback'}\``);
      continue;
    }
    undefinedModifiers(p, node, fn);
    const copy = fn.name ? info.internalCopies?.get(fn.name) : undefined;
    const r = transpileFunction(p, info, scope, fn, loopCounter, copy);
    loopCounter = r.loopCounter;
    if (r.member) members.push(r.member);
    if (copy && r.member?.k === 'fn') members.push(publicEntry(info, fn, r.member));
  }

  // An sCrypt contract is spent through its public functions: one without any cannot be compiled.
  if (!isLibrary && !unique.some((fn) => isPlainFunction(fn) && isExternallyVisible(fn))) {
    p.error(contractNameSpan(p, node), `unsupported contract without a public or external function: \`${node.name}\``);
  }
  if (info.initBalance) props.push({ k: 'prop', state: false, visibility: '', isConst: true, type: 'int', name: 'initBalance' });
  statics.push(...loopCounts(p, info, scope));
  const takesPreimage = members.some((m) => m.k === 'fn' && m.params.some((x) => x.type === 'SigHashPreimage' && x.name === 'txPreimage'));
  if (info.stateful && takesPreimage) members.push(propagateState());
  if (info.initBalance) members.push(checkInitBalance());
  return { kind: isLibrary ? 'library' : 'contract', name: scryptName(node.name), members: [...props, ...statics, ...members] };
}

/**
 * Modifiers are not supported (sol2scrypt: "unsupported modifier definition", reported at the definition).
 * A function that uses a modifier the contract does not define would otherwise be emitted without the
 * modifier's checks and with no error at all (sol2scrypt drops the use silently): each such use is reported.
 */
function undefinedModifiers(p: ProgramContext, node: ContractDefinition, fn: FunctionDefinition): void {
  const defined = new Set(node.subNodes.filter((n): n is ModifierDefinition => n.type === 'ModifierDefinition').map((n) => n.name));
  for (const m of fn.modifiers ?? []) {
    if (!defined.has(m.name)) p.error(m, `unsupported modifier invocation: \`${p.text(m)}\``);
  }
}

/** Where a contract's name is written (the parser gives the whole definition's range). */
function contractNameSpan(p: ProgramContext, node: ContractDefinition): Span {
  const whole = spanOf(node);
  const m = new RegExp(`\\bcontract\\s+(${node.name.replace(/\$/g, '\\$')})\\b`).exec(p.source.text.slice(whole.start, whole.end));
  if (!m) return whole;
  const start = whole.start + m.index + m[0].length - m[1].length;
  return { start, end: start + m[1].length };
}

function property(
  p: ProgramContext,
  c: ContractInfo,
  scope: Scope,
  node: StateVariableDeclaration,
  props: SMember[],
  statics: SMember[],
): void {
  const v = node.variables[0];
  if (!v?.name) return;
  const init = node.initialValue;
  const cx = { p, c, f: null, scope };
  // `constant`, and `immutable` with a value, are compile-time constants; `immutable` without one is set by the constructor.
  if (v.isDeclaredConst || (v.isImmutable && init)) {
    const t = v.typeName ? solType(p, v.typeName) : null;
    const value = init ? valueFor(cx, t, init) : null;
    scope.declare(v.name, 'constant', t ?? UNKNOWN, 0);
    if (t && value) statics.push({ k: 'static', type: p.typeText(t), name: scryptName(v.name), value });
    return;
  }
  if (init) p.error(node, `unsupported state variable \`${v.name}\` with initial value`);
  const t = v.typeName ? solType(p, v.typeName) : null;
  scope.declare(v.name, v.isImmutable ? 'immutable' : 'state', t ?? UNKNOWN, 0);
  if (!t) return;
  const visibility = v.visibility === 'public' || v.visibility === 'private' ? v.visibility : '';
  props.push({ k: 'prop', state: !v.isImmutable, visibility, isConst: v.isImmutable, type: p.typeText(t), name: scryptName(v.name) });
}

/**
 * A `@state int <name>Length` counter for each fixed-size state array the contract pushes to (its
 * elements past the counter are unused); `push` writes at the counter and `.length` reads it.
 */
function pushedArrays(node: ContractDefinition, scope: Scope, props: SMember[]): Map<string, { size: number; counter: string }> {
  const out = new Map<string, { size: number; counter: string }>();
  const taken = new Set(props.map((m) => (m.k === 'prop' ? m.name : '')));
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const o = n as { type?: string; expression?: { type?: string; memberName?: string; expression?: { type?: string; name?: string } } };
    const callee = o.type === 'FunctionCall' ? o.expression : undefined;
    const name =
      callee?.type === 'MemberAccess' && callee.memberName === 'push' && callee.expression?.type === 'Identifier'
        ? callee.expression.name
        : undefined;
    const sym = name ? scope.lookup(name) : undefined;
    if (name && sym?.kind === 'state' && sym.type.k === 'array' && !out.has(name)) {
      const counter = `${scryptName(name)}Length`;
      if (!taken.has(counter) && !scope.lookup(counter)) {
        out.set(name, { size: sym.type.size, counter });
        props.push({ k: 'prop', state: true, visibility: '', isConst: false, type: 'int', name: counter });
      }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v);
  };
  for (const sub of node.subNodes) if (sub.type === 'FunctionDefinition') visit(sub);
  return out;
}

/**
 * `static const int __LoopCount__N` for each loop id the source did not declare itself: the count read
 * off a counting loop (`for (uint i = 0; i < 10; i++)`: 10; the largest where functions share an id),
 * else DEFAULT_LOOP_BOUND with a warning saying how to choose it.
 */
function loopCounts(p: ProgramContext, c: ContractInfo, scope: Scope): SMember[] {
  const ids = [...new Set(c.loops.map((l) => l.id))].sort((a, b) => a - b);
  const out: SMember[] = [];
  for (const id of ids) {
    const name = `__LoopCount__${id}`;
    if (scope.lookup(name)?.kind === 'constant') continue;
    const loops = c.loops.filter((l) => l.id === id);
    let bound = 0n;
    for (const l of loops) {
      if (l.bound === null) {
        p.logs.warning(
          l.at,
          `the loop's iteration count is not known: it runs at most ${DEFAULT_LOOP_BOUND} times; declare \`uint constant ${name} = <count>;\` to choose the bound`,
        );
        bound = bound > DEFAULT_LOOP_BOUND ? bound : DEFAULT_LOOP_BOUND;
      } else if (l.bound > bound) bound = l.bound;
    }
    out.push({ k: 'static', type: 'int', name, value: raw(String(bound)) });
  }
  return out;
}

/** Keeps the contract's state in its output: the same script with the new state, holding `value` satoshis. */
function propagateState(): SMember {
  return {
    k: 'fn',
    visibility: '',
    isStatic: false,
    name: 'propagateState',
    params: [
      { type: 'SigHashPreimage', name: 'txPreimage' },
      { type: 'int', name: 'value' },
    ],
    returns: 'bool',
    body: [
      { k: 'require', e: raw('Tx.checkPreimage(txPreimage)') },
      { k: 'decl', type: 'bytes', name: 'outputScript', init: raw('this.getStateScript()') },
      { k: 'decl', type: 'bytes', name: 'output', init: raw('Utils.buildOutput(outputScript, value)') },
      { k: 'return', e: raw('hash256(output) == SigHash.hashOutputs(txPreimage)') },
    ],
  };
}

/** On the contract's first call its balance must be what the constructor was given (`msg.value`). */
function checkInitBalance(): SMember {
  return {
    k: 'fn',
    visibility: '',
    isStatic: false,
    name: 'checkInitBalance',
    params: [{ type: 'SigHashPreimage', name: 'txPreimage' }],
    returns: 'bool',
    body: [{ k: 'return', e: raw('!Tx.isFirstCall(txPreimage) || SigHash.value(txPreimage) == this.initBalance') }],
  };
}

/**
 * `$` becomes `_` in sCrypt names (sol2scrypt's rule), so `a$b` and `a_b` would both be `a_b`: a clash is
 * reported where the second is declared rather than written out as one name declared twice.
 */
function refuseCollidingNames(p: ProgramContext, stateVars: readonly StateVariableDeclaration[]): void {
  const seen = new Map<string, string>();
  for (const v of stateVars) {
    const name = v.variables[0]?.name;
    if (!name) continue;
    const scrypt = scryptName(name);
    const earlier = seen.get(scrypt);
    if (earlier !== undefined && earlier !== name)
      p.error(v, `state variable \`${name}\` and \`${earlier}\` would both be \`${scrypt}\` in sCrypt (\`$\` becomes \`_\`); rename one`);
    seen.set(scrypt, name);
  }
}
