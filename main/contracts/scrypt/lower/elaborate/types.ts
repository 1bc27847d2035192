import type { Type } from '../../semantics/model.js';

/** No unknown part, every array size known: a type code can be generated for. */
export function isConcrete(t: Type): boolean {
  switch (t.k) {
    case 'any':
      return false;
    case 'array':
      return t.size !== null && isConcrete(t.elem);
    case 'struct':
    case 'object':
      return t.decl.generics.every((g) => {
        const a = t.args.get(g);
        return a !== undefined && isConcrete(a);
      });
    default:
      return true;
  }
}
