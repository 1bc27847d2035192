import type { TypeName } from '@solidity-parser/parser/dist/src/ast-types.js';
import type { ProgramContext } from './context.js';
import { ADDRESS, BOOL, BYTES, INT, type SolType } from './types.js';

/**
 * A Solidity type name as a transpiler type, or null (with an error logged) when sCrypt has no counterpart:
 * `address payable`, enums, contract and function types, dynamic arrays, fixed-point numbers.
 */
export function solType(p: ProgramContext, node: TypeName): SolType | null {
  switch (node.type) {
    case 'ElementaryTypeName':
      return elementary(p, node);
    case 'UserDefinedTypeName': {
      const name = node.namePath;
      if (p.structs.has(name)) return { k: 'struct', name };
      p.error(node, `unsupported type: \`${p.text(node)}\``);
      return null;
    }
    case 'ArrayTypeName': {
      const elem = solType(p, node.baseTypeName);
      if (!node.length) {
        p.error(node, 'array length should be explicitly specified');
        return null;
      }
      const size =
        node.length.type === 'NumberLiteral' && !node.length.subdenomination && /^\d+$/.test(node.length.number)
          ? Number(node.length.number)
          : null;
      if (size === null) {
        p.error(node.length, `unsupported number literal expression: \`${p.text(node.length)}\``);
        return null;
      }
      return elem && { k: 'array', elem, size };
    }
    case 'Mapping': {
      const key = solType(p, node.keyType);
      const value = solType(p, node.valueType);
      if (!key || !value) return null;
      // mapping(K1 => mapping(K2 => V)) is one map keyed by a generated struct {K1 key0; K2 key1;}.
      return value.k === 'mapping'
        ? { k: 'mapping', keys: [key, ...value.keys], value: value.value }
        : { k: 'mapping', keys: [key], value };
    }
    default:
      p.error(node, `unsupported type: \`${p.text(node)}\``);
      return null;
  }
}

function elementary(p: ProgramContext, node: Extract<TypeName, { type: 'ElementaryTypeName' }>): SolType | null {
  const name = node.name;
  if (name === 'address') {
    if (node.stateMutability === 'payable') {
      p.error(node, 'unsupported type: `address payable`');
      return null;
    }
    return ADDRESS;
  }
  if (name === 'bool') return BOOL;
  if (name === 'string') return { k: 'string' };
  if (/^u?int\d*$/.test(name)) return INT;
  if (name === 'byte' || /^bytes\d*$/.test(name)) return BYTES;
  p.error(node, `unsupported type: \`${p.text(node)}\``);
  return null;
}

/** The Solidity elementary types a one-argument call converts to (a cast the transpiler drops). */
export function isCastType(name: string): boolean {
  return (
    name === 'bool' || name === 'string' || name === 'address' || name === 'byte' || /^u?int\d*$/.test(name) || /^bytes\d*$/.test(name)
  );
}
