import { BUILTINS } from '../semantics/builtins.js';
import { familyOf, type Family, type Layout } from '../semantics/layout.js';
import { show, type Type } from '../semantics/model.js';
import { isConcrete } from './elaborate/types.js';
import type { ContractIR, IExpr, IStmt, Place, Slot } from './ir.js';

/** The IR broke one of its rules: a bug in the compiler, never in the program being compiled. */
export class IRError extends Error {}

/**
 * Checks the lowered program before code generation, so that code generation can trust it: every type
 * concrete; every slot read or written is live where it is used (declared earlier in an enclosing block,
 * a parameter of the enclosing inlined call, a property); operands of the families their operators take;
 * composite values as large as their types; both branches of `?:` the same size; places inside their
 * values. The typer and the semantic passes established these facts on the source; this checks that the
 * lowering kept them.
 */
export function verifyIR(ir: ContractIR, layout: Layout): void {
  new Verifier(layout).contract(ir);
}

class Verifier {
  private live = new Set<Slot>();

  constructor(private readonly layout: Layout) {}

  private fail(what: string): never {
    throw new IRError(what);
  }

  contract(ir: ContractIR): void {
    const props = new Set([...ir.constants.map((c) => c.slot), ...ir.properties]);
    // A value built inside a constructor parameter has that parameter as its `this`.
    for (const b of ir.built) {
      if (b.offset < 0 || b.offset + this.size(b.type) > this.size(b.slot.type)) this.fail(`a value built outside ${b.slot.name}`);
      this.scoped([...new Set([...props, b.slot, ...b.params])], () => this.stmts(b.body));
    }
    if (ir.ctor) this.scoped([...props, ...ir.ctor.params], () => this.stmts(ir.ctor!.body));
    for (const f of ir.publics) {
      this.scoped([...props, ...f.params], () => {
        f.body.forEach((x) => this.stmt(x)); // its locals stay live for the final require
        this.family(f.final, ['bool'], `the final require of ${f.name}`);
      });
    }
  }

  /** Runs `f` with more slots live, then only those live before (a block's locals end with it). */
  private scoped(slots: Slot[], f: () => void): void {
    const outer = this.live;
    this.live = new Set([...outer, ...slots]);
    for (const s of slots) this.type(s.type, `slot ${s.name}`);
    try {
      f();
    } finally {
      this.live = outer;
    }
  }

  private type(t: Type, where: string): void {
    if (!isConcrete(t)) this.fail(`${where} has the type ${show(t)}, which is not fully known`);
    this.layout.size(t);
  }

  private size(t: Type): number {
    return this.layout.size(t);
  }

  private family(e: IExpr, allowed: Family[], where: string): void {
    this.expr(e);
    const f = familyOf(e.type);
    if (!f || !allowed.includes(f)) this.fail(`${where} is ${show(e.type)}, not ${allowed.join(' or ')}`);
  }

  private place(p: Place, where: string): void {
    if (!this.live.has(p.slot)) this.fail(`${where}: slot ${p.slot.name}#${p.slot.id} is not live`);
    if (p.offset < 0 || p.offset + this.size(p.type) > this.size(p.slot.type)) this.fail(`${where}: leaves outside ${p.slot.name}`);
    for (const d of p.dynamic) this.family(d.index, ['int'], `${where}: an index`);
    if (p.element) {
      const { index, size, stride, start, within } = p.element;
      this.family(index, ['int'], `${where}: an index`);
      if (
        p.dynamic.length ||
        start < 0 ||
        within < 0 ||
        within + this.size(p.type) > stride ||
        start + size * stride > this.size(p.slot.type)
      )
        this.fail(`${where}: an element outside its array`);
    }
  }

  private stmts(list: IStmt[]): void {
    this.scoped([], () => list.forEach((s) => this.stmt(s)));
  }

  private stmt(s: IStmt): void {
    switch (s.kind) {
      case 'declare':
        this.expr(s.init);
        if (this.size(s.init.type) !== this.size(s.slot.type))
          this.fail(`${s.slot.name}: a ${show(s.init.type)} value in a ${show(s.slot.type)} slot`);
        this.declare(s.slot);
        return;
      case 'construct':
        s.params.forEach((p) => this.expr(p.arg));
        s.values?.forEach((v) => this.expr(v));
        if (s.values && s.values.reduce((n, v) => n + this.size(v.type), 0) !== this.size(s.slot.type))
          this.fail(`${s.slot.name}: built from values of another size`);
        this.type(s.slot.type, s.slot.name);
        this.scoped([s.slot, ...s.params.map((p) => p.slot)], () => this.stmts(s.body));
        this.declare(s.slot);
        return;
      case 'assign':
        this.expr(s.value);
        this.place(s.place, 'an assignment');
        if (s.place.dynamic.length) this.fail('a write at a run-time index');
        if (this.size(s.value.type) !== this.size(s.place.type))
          this.fail(`a ${show(s.value.type)} value assigned to ${show(s.place.type)}`);
        return;
      case 'step':
        this.place(s.place, s.op);
        if (familyOf(s.place.type) !== 'int') this.fail(`${s.op} on ${show(s.place.type)}`);
        return;
      case 'eval':
        this.expr(s.expr);
        return;
      case 'require':
      case 'exit':
        this.family(s.cond, ['bool'], s.kind);
        return;
      case 'if':
        this.family(s.cond, ['bool', 'int', 'bytes'], 'an if condition');
        this.stmts(s.then);
        if (s.else) this.stmts(s.else);
        return;
      case 'block':
        this.stmts(s.body);
        return;
      case 'unrolled':
        s.iterations.forEach((it) => this.stmts(it));
        return;
      case 'codesep':
        return;
    }
  }

  private declare(slot: Slot): void {
    if (this.live.has(slot)) this.fail(`slot ${slot.name}#${slot.id} declared twice`);
    this.type(slot.type, slot.name);
    this.live.add(slot);
  }

  private expr(e: IExpr): void {
    this.type(e.type, `a ${e.kind}`);
    switch (e.kind) {
      case 'take':
        if (!this.live.has(e.slot)) this.fail(`${e.slot.name} taken where it is not live`);
        return;
      case 'const':
        return;
      case 'read':
        return this.place(e.place, 'a read');
      case 'step':
        this.place(e.place, e.op);
        if (e.place.dynamic.length || familyOf(e.place.type) !== 'int') this.fail(`${e.op} on ${show(e.place.type)}`);
        return;
      case 'narrow':
        this.expr(e.object);
        if (e.start < 0 || e.start + e.count > this.size(e.object.type) || e.count !== this.size(e.type))
          this.fail('a part outside its value');
        return;
      case 'unary':
        return this.family(e.operand, e.op === '!' ? ['bool'] : e.op === '-' ? ['int'] : ['int', 'bytes'], `unary ${e.op}`);
      case 'binary': {
        this.expr(e.left);
        this.expr(e.right);
        const a = familyOf(e.left.type);
        const b = familyOf(e.right.type);
        if (!a || !b) this.fail(`${e.op} on ${show(e.left.type)} and ${show(e.right.type)}`);
        return;
      }
      case 'shift':
        if (typeof e.count !== 'bigint') this.family(e.count, ['int'], 'a shift count');
        return this.family(e.left, ['int'], 'an int shift');
      case 'compare':
        this.expr(e.left);
        this.expr(e.right);
        if (this.size(e.left.type) !== this.size(e.right.type)) this.fail(`comparing ${show(e.left.type)} with ${show(e.right.type)}`);
        return;
      case 'logic':
        this.family(e.left, ['bool'], e.op);
        this.family(e.right, ['bool'], e.op);
        return;
      case 'ternary':
        this.family(e.cond, ['bool', 'int', 'bytes'], 'the condition of ?:');
        this.expr(e.then);
        this.expr(e.else);
        if (this.size(e.then.type) !== this.size(e.else.type) || this.size(e.then.type) !== this.size(e.type))
          this.fail('branches of ?: of different sizes');
        return;
      case 'slice':
        this.family(e.object, ['bytes'], 'a slice');
        if (e.start) this.family(e.start, ['int'], 'a slice bound');
        if (e.end) this.family(e.end, ['int'], 'a slice bound');
        return;
      case 'composite': {
        e.parts.forEach((p) => this.expr(p));
        const total = e.parts.reduce((n, p) => n + this.size(p.type), 0);
        if (total !== this.size(e.type)) this.fail(`a ${show(e.type)} built from ${total} leaves`);
        return;
      }
      case 'builtin': {
        const b = BUILTINS[e.name] ?? this.fail(`unknown built-in ${e.name}`);
        e.args.forEach((a) => this.expr(a));
        const arity = b.params.filter((p) => p !== 'ctc').length;
        if (e.args.length !== arity || e.sizes.length !== b.params.length - arity) this.fail(`${e.name}() with ${e.args.length} arguments`);
        return;
      }
      case 'convert':
        this.expr(e.operand);
        if (!familyOf(e.operand.type) || !familyOf(e.type)) this.fail(`converting ${show(e.operand.type)} to ${show(e.type)}`);
        return;
      case 'inline': {
        const { frame } = e;
        frame.params.forEach((p) => this.expr(p.arg));
        // The body sees its parameters and the properties, not the caller's locals; the caller's slots stay live
        // (a library method's `this` is one of them).
        this.scoped(
          frame.params.map((p) => p.slot),
          () => {
            frame.body.forEach((x) => this.stmt(x)); // its locals stay live for the result
            if (frame.result) {
              this.expr(frame.result);
              if (this.size(frame.result.type) !== this.size(e.type))
                this.fail(`${frame.name} returns ${show(frame.result.type)} as ${show(e.type)}`);
            } else if (familyOf(e.type) !== 'bool') this.fail(`${frame.name} without a result`);
          },
        );
        return;
      }
      case 'sequence':
        // The body's slots live until the result is computed, then end with it.
        this.scoped([], () => {
          e.body.forEach((x) => this.stmt(x));
          this.expr(e.result);
        });
        if (this.size(e.result.type) !== this.size(e.type)) this.fail(`a ${show(e.result.type)} value as ${show(e.type)}`);
        return;
      case 'asm':
        e.args.forEach((a) => this.expr(a));
        return;
    }
  }
}
