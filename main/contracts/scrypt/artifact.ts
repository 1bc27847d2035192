import { createHash } from 'node:crypto';
import type { ContractLike, TypeRef } from './ast.js';
import { abiType } from './codegen.js';

export const COMPILER_VERSION = '0.1.0-keystead';

export interface AbiEntity {
  type: 'function' | 'constructor';
  name?: string;
  index?: number;
  params: { name: string; type: string }[];
}

/** The scryptlib v9 artifact; scryptlib's buildContractClass reads contract, version, abi and hex. */
export interface Artifact {
  version: 9;
  compilerVersion: string;
  contract: string;
  md5: string;
  structs: unknown[];
  library: unknown[];
  alias: unknown[];
  abi: AbiEntity[];
  stateProps: unknown[];
  buildType: 'debug' | 'release';
  file: string;
  hex: string;
  sourceMapFile: string;
}

/** md5 of the template with every <placeholder> emptied, as scryptlib computes it. */
export function templateMd5(hex: string): string {
  return createHash('md5').update(hex.replace(/<[^>]*>/g, '<>')).digest('hex');
}

export function buildArtifact(contract: ContractLike, hex: string, optimized: boolean, typeOf: (t: TypeRef) => string = (t) => abiType(t.name)): Artifact {
  const publics = contract.functions.filter((f) => f.visibility === 'public');
  const props = contract.properties.filter((p) => !p.isStatic); // static consts are compile-time, not constructor params
  const abi: AbiEntity[] = [
    ...publics.map((f, index) => ({ type: 'function' as const, name: f.name, index, params: f.params.map((p) => ({ name: p.name, type: typeOf(p.type) })) })),
    // Always present, and last: without it a two-function contract gets no selector.
    { type: 'constructor', params: (contract.ctor ? contract.ctor.params : props).map((p) => ({ name: p.name, type: typeOf(p.type) })) },
  ];
  return {
    version: 9,
    compilerVersion: COMPILER_VERSION,
    contract: contract.name,
    md5: templateMd5(hex),
    structs: [],
    library: [],
    alias: [],
    abi,
    stateProps: [],
    buildType: optimized ? 'release' : 'debug',
    file: '',
    hex,
    sourceMapFile: '',
  };
}
