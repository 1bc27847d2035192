import type { Place } from '../lower/ir.js';
import type { Gen } from './stack.js';

/**
 * Reads and writes of storage. A read PICKs each leaf by depth; at a run-time index the leaf's depth is
 * computed (Σ index × stride, each index checked against its array's size) and PICKed from there. A write
 * ROLLs the value on top into the place, leaf by leaf from the last.
 */
export function readPlace(g: Gen, place: Place): void {
  if (place.element) return readElement(g, place, place.element);
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

/**
 * A write of the value on top into a place. One leaf is the replace pattern; a value of n leaves (a struct,
 * an array) moves as a whole, in the official shape: the n old leaves are rolled up from depth d and
 * dropped, then the k items that were between them and the value are rolled back above it:
 * n × (OP_d OP_ROLL), n × OP_DROP, k × (OP_(n+k−1) OP_ROLL).
 */
export function writePlace(g: Gen, place: Place): void {
  const { m } = g;
  const n = g.layout.size(place.type);
  if (n === 1) return m.replace(place.slot, place.offset);
  const k = m.depthOf(place.slot, place.offset + n - 1) - n;
  const d = 2 * n - 1 + k;
  for (let i = 0; i < n; i++) {
    m.pushNumber(d);
    m.emit('OP_ROLL');
  }
  for (let i = 0; i < n; i++) m.emit('OP_DROP');
  for (let i = 0; i < k; i++) {
    m.pushNumber(n + k - 1);
    m.emit('OP_ROLL');
  }
  m.stack.splice(-n, n); // the new value now sits in the place
}

/** Bounds-checks the index on top (0 ≤ i < size), leaving it. */
function checkBounds(g: Gen, size: number): void {
  g.m.emit('OP_DUP', 'OP_0', 'OP_GREATERTHANOREQUAL', 'OP_VERIFY', 'OP_DUP');
  g.m.pushNumber(size);
  g.m.emit('OP_LESSTHAN', 'OP_VERIFY');
}

/**
 * An array element read in the official shape, whether the index is known or not. A one-leaf element of a
 * local or parameter is PICKed in place: the depth of element 0, minus index × stride, kept on the alt
 * stack for the PICK. An element of a property's array, or a wider one (a struct, an inner array), is read
 * from a copy of the whole array: the element's depth in
 * the copy, (size − index) × stride − 1, goes to the alt stack; each leaf is PICKed from it; the element
 * waits on the alt stack while the copy is dropped; then the part read is kept (StackMachine.narrow).
 */
function readElement(g: Gen, place: Place, el: NonNullable<Place['element']>): void {
  const { m } = g;
  if (el.stride === 1 && !el.property) {
    m.pushNumber(m.depthOf(place.slot, el.start));
    m.temps(1);
    g.expr(el.index);
    checkBounds(g, el.size);
    m.pushNumber(el.stride);
    m.emit('OP_MUL', 'OP_SUB', 'OP_TOALTSTACK', 'OP_FROMALTSTACK', 'OP_DUP', 'OP_TOALTSTACK', 'OP_PICK', 'OP_FROMALTSTACK', 'OP_DROP');
    m.stack.splice(-2, 2, null);
    return;
  }
  const leaves = el.size * el.stride;
  for (let j = 0; j < leaves; j++) {
    m.pick(m.depthOf(place.slot, el.start + j));
    m.temps(1);
  }
  m.pushNumber(el.size);
  m.temps(1);
  g.expr(el.index);
  checkBounds(g, el.size);
  m.emit('OP_SUB');
  m.pushNumber(el.stride);
  m.emit('OP_MUL', 'OP_1SUB', 'OP_TOALTSTACK');
  m.stack.splice(-2, 2);
  for (let j = 0; j < el.stride; j++) m.emit('OP_FROMALTSTACK', 'OP_DUP', 'OP_TOALTSTACK', 'OP_PICK');
  m.emit('OP_FROMALTSTACK', 'OP_DROP');
  for (let j = 0; j < el.stride; j++) m.emit('OP_TOALTSTACK');
  for (let j = 0; j < leaves; j++) m.emit('OP_DROP');
  for (let j = 0; j < el.stride; j++) m.emit('OP_FROMALTSTACK');
  m.stack.splice(-leaves, leaves);
  m.temps(el.stride);
  const n = g.layout.size(place.type);
  if (n < el.stride) m.narrow(el.stride, el.within, n);
}
