import type { ContractLike, Expr, Func } from '../../ast.js';
import { readAsm } from '../../semantics/asm.js';
import { namedInt } from '../../semantics/constants.js';
import { BOOL, eachStmt } from '../../semantics/model.js';
import type { BuiltValue, ContractIR, IStmt, PublicFunction } from '../ir.js';
import type { ElabContext } from './context.js';
import { builtWithin, defaultBuilt, defaultBuiltWithin } from './library-values.js';

/**
 * The main contract's entry points, which are compiled where they are (not inlined): its public functions,
 * each ending with the require whose condition is the script's result, and its explicit constructor.
 */
export function publicFunction(cx: ElabContext, main: ContractLike, f: Func): PublicFunction {
  const scope = cx.newScope(main, new Map(), f, { kind: 'contract' }, true);
  return cx.within(scope, () => {
    cx.at = f.at;
    const params = f.params.map((p) => cx.bindParam(p));
    const last = f.body[f.body.length - 1];
    if (f.body.length === 1 && last.kind === 'asm') {
      const read = readAsm(last.text, `${main.name}.${f.name}`, (name) => namedInt(name, cx.constScope()));
      if ('error' in read) return cx.internal(last.at, read.error);
      return { name: f.name, at: f.at, params, body: [], final: { kind: 'const', value: true, type: BOOL, at: f.at }, asm: read.tokens };
    }
    if (!last || last.kind !== 'require') cx.internal(f.at, `public function ${f.name} does not end with require`);
    const body = f.body.slice(0, -1).map((s) => cx.stmt(s));
    cx.at = last.at;
    scope.typer.statement(last);
    cx.checkpoint();
    return { name: f.name, at: f.at, params, body, final: cx.expr(last.cond) };
  });
}

/**
 * The explicit constructor: its body moves the parameters into the properties. Library values with an
 * explicit constructor inside its parameters are built from their own arguments (added to `built`).
 */
export function contractConstructor(
  cx: ElabContext,
  main: ContractLike,
  ctor: NonNullable<ContractLike['ctor']>,
  built: BuiltValue[],
): ContractIR['ctor'] {
  const scope = cx.newScope(main, new Map(), null, { kind: 'contract' }, false);
  return cx.within(scope, () => {
    const params = ctor.params.map((p) => cx.bindParam(p));
    params.forEach((slot) => builtWithin(cx, slot, built));
    const body = ctor.body.map((s) => cx.stmt(s));
    // A library-valued property the constructor leaves alone is built by its own constructor from default
    // arguments (0, b'', false), as the official compiler does, then moved into place. So is each such value
    // inside a property it does not set as a whole (the elements of an array of them): after the body when
    // the body never writes into the property, before it when it sets some of them (`this.p[0] = new T(…)`),
    // so that those keep the body's values.
    const assigned = new Set<string>();
    const touched = new Set<string>();
    for (const s of ctor.body) {
      eachStmt(s, (x) => {
        if (x.kind !== 'assign') return;
        if (x.target.kind === 'member' && x.target.object.kind === 'this') assigned.add(x.target.name);
        const root = propertyWritten(x.target);
        if (root) touched.add(root);
      });
    }
    const before: IStmt[] = [];
    for (const [name, slot] of cx.props) {
      if (assigned.has(name)) continue;
      if (slot.type.k === 'object' && slot.type.decl.ctor) body.push(defaultBuilt(cx, slot, slot.type));
      else defaultBuiltWithin(cx, slot, touched.has(name) ? before : body);
    }
    body.unshift(...before);
    return { params, body };
  });
}

/** The property an assignment writes into (`this.p`, `this.p[i]`, `this.p.f[i]`), if it writes into one. */
function propertyWritten(target: Expr): string | null {
  let e = target;
  while (e.kind === 'index' || (e.kind === 'member' && e.object.kind !== 'this')) e = e.object;
  return e.kind === 'member' && e.object.kind === 'this' ? e.name : null;
}
