import { createHash } from 'node:crypto';
import type { ContractLike, Item, Program, TypeRef } from './ast.js';
import { abiTypeName } from './semantics/layout.js';
import type { Facts } from './semantics/model.js';

export const COMPILER_VERSION = '0.2.0-keystead';

export interface AbiEntity {
  type: 'function' | 'constructor';
  name?: string;
  index?: number;
  params: { name: string; type: string }[];
}

interface Named {
  name: string;
  type: string;
}

/** The scryptlib v9 artifact; scryptlib's buildContractClass reads contract, version, abi and hex. */
export interface Artifact {
  version: 9;
  compilerVersion: string;
  contract: string;
  md5: string;
  structs: { name: string; params: Named[]; genericTypes: string[] }[];
  library: { name: string; params: Named[]; properties: Named[]; genericTypes: string[] }[];
  alias: Named[];
  abi: AbiEntity[];
  stateProps: Named[];
  buildType: 'debug' | 'release';
  file: string;
  hex: string;
  sourceMapFile: string;
}

/** md5 of the template with every <placeholder> emptied, as scryptlib computes it. */
export function templateMd5(hex: string): string {
  return createHash('md5')
    .update(hex.replace(/<[^>]*>/g, '<>'))
    .digest('hex');
}

/**
 * `facts` are the semantic passes' (for the constants array sizes name); types as the ABI writes them (aliases resolved, sizes evaluated).
 */
export function buildArtifact(program: Program, contract: ContractLike, hex: string, optimized: boolean, facts: Facts): Artifact {
  const named = (name: string, t: TypeRef, generics: string[] = [], owner: ContractLike | null = contract) => ({
    name,
    type: abiTypeName(t, facts, generics, owner),
  });
  const publics = contract.functions.filter((f) => f.visibility === 'public');
  const props = contract.properties.filter((p) => !p.isStatic); // static consts are compile-time, not constructor params
  const abi: AbiEntity[] = [
    ...publics.map((f, index) => ({ type: 'function' as const, name: f.name, index, params: f.params.map((p) => named(p.name, p.type)) })),
    // Always present, and last: without it a two-function contract gets no selector.
    { type: 'constructor', params: (contract.ctor ? contract.ctor.params : props).map((p) => named(p.name, p.type)) },
  ];
  const structs: Artifact['structs'] = [];
  const library: Artifact['library'] = [];
  const alias: Named[] = [];
  for (const item of [...usedLibraryItems(program, abi, facts), ...program.items]) {
    if (item.kind === 'struct')
      structs.push({
        name: item.name,
        params: item.fields.map((f) => named(f.name, f.type, item.generics, null)),
        genericTypes: item.generics,
      });
    else if (item.kind === 'alias') alias.push(named(item.name, item.type, [], null));
    else if (item.kind === 'library') {
      const properties = item.properties.filter((p) => !p.isStatic).map((p) => named(p.name, p.type, item.generics, item));
      const params = item.ctor ? item.ctor.params.map((p) => named(`ctor.${p.name}`, p.type, item.generics, item)) : properties;
      library.push({ name: item.name, params, properties, genericTypes: item.generics });
    }
  }
  return {
    version: 9,
    compilerVersion: COMPILER_VERSION,
    contract: contract.name,
    md5: templateMd5(hex),
    structs,
    library,
    alias,
    abi,
    stateProps: props.filter((p) => p.state).map((p) => named(p.name, p.type)),
    buildType: optimized ? 'release' : 'debug',
    file: '',
    hex,
    sourceMapFile: '',
  };
}

/**
 * Standard-library structs and libraries the ABI names (a `VarIntReader` property, a `HashedMap` state,
 * a `SortedItem` parameter), and those their fields name in turn: scryptlib needs their entries to
 * encode such arguments. The user's own declarations are listed anyway.
 */
function usedLibraryItems(program: Program, abi: AbiEntity[], facts: Facts): Item[] {
  const own = new Set(program.items.map((i) => i.name));
  const byName = new Map(facts.env.program.items.filter((i) => !own.has(i.name)).map((i) => [i.name, i]));
  const found = new Map<string, Item>();
  const visit = (type: string) => {
    const name = type.replace(/\[.*$/, '').replace(/<.*$/, '');
    const item = byName.get(name);
    if (!item || found.has(name) || (item.kind !== 'struct' && item.kind !== 'library')) return;
    found.set(name, item);
    if (item.kind === 'struct') item.fields.forEach((f) => visit(f.type.name));
    else [...item.properties.filter((p) => !p.isStatic), ...(item.ctor?.params ?? [])].forEach((p) => visit(p.type.name));
  };
  for (const entity of abi) entity.params.forEach((p) => visit(p.type));
  return [...byName.values()].filter((i) => found.has(i.name));
}
