import type { Place } from '../lower/ir.js';
import type { Gen } from './stack.js';

/**
 * Reads and writes of storage. A read PICKs each leaf by depth; at a run-time index the leaf's depth is
 * computed (Σ index × stride, each index checked against its array's size) and PICKed from there. A write
 * ROLLs the value on top into the place, leaf by leaf from the last.
 */
export function readPlace(g: Gen, place: Place): void {
  const { m } = g;
  const n = g.layout.size(place.type);
  for (let j = 0; j < n; j++) {
    const leaf = place.offset + j;
    if (!place.dynamic.length) {
      m.pick(m.depthOf(place.slot, leaf));
      m.temps(1);
      continue;
    }
    place.dynamic.forEach((d, i) => {
      g.expr(d.index);
      if (j === 0) {
        m.emit('OP_DUP', 'OP_0', 'OP_GREATERTHANOREQUAL', 'OP_VERIFY', 'OP_DUP');
        m.pushNumber(d.size);
        m.emit('OP_LESSTHAN', 'OP_VERIFY');
      }
      if (d.stride !== 1) {
        m.pushNumber(d.stride);
        m.emit('OP_MUL');
      }
      if (i > 0) {
        m.emit('OP_ADD');
        m.stack.pop();
      }
    });
    m.pushNumber(m.depthOf(place.slot, leaf) - 1);
    m.emit('OP_SWAP', 'OP_SUB', 'OP_PICK');
  }
}

export function writePlace(g: Gen, place: Place): void {
  const n = g.layout.size(place.type);
  for (let j = n - 1; j >= 0; j--) g.m.replace(place.slot, place.offset + j);
}
