import type { Program } from '../../ast.js';
import type { ConstRef } from '../../semantics/constants.js';
import type { Slot, StackConstant } from '../ir.js';

type ConstDecl = ConstRef['decl'];

/**
 * The non-int static constants code reads, each registered the first time it is read and pushed once at
 * the bottom of the script: the standard library's first, then the user's, each in declaration order.
 */
export class StackConstants {
  private readonly byDecl = new Map<ConstDecl, StackConstant & { ordinal: number }>();
  private order: ConstDecl[] | null = null;

  constructor(private readonly program: Program) {}

  slotOf(decl: ConstDecl): Slot | null {
    return this.byDecl.get(decl)?.slot ?? null;
  }

  add(decl: ConstDecl, slot: Slot, leaves: StackConstant['leaves']): void {
    this.byDecl.set(decl, { slot, leaves, ordinal: this.declarationOrder().indexOf(decl) });
  }

  /** The constants in the order they are pushed (deepest first). */
  inOrder(): StackConstant[] {
    return [...this.byDecl.values()].sort((a, b) => a.ordinal - b.ordinal).map(({ slot, leaves }) => ({ slot, leaves }));
  }

  /** Every static constant of the program (standard library first), in declaration order. */
  private declarationOrder(): ConstDecl[] {
    this.order ??= this.program.items.flatMap((item): ConstDecl[] =>
      item.kind === 'const' ? [item] : 'properties' in item ? item.properties.filter((p) => p.isStatic) : [],
    );
    return this.order;
  }
}
