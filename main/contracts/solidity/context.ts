import type { BaseASTNode, Expression } from '@solidity-parser/parser/dist/src/ast-types.js';
import { spanOf, type Logs, type SourceText, type Span } from './logs.js';
import type { SExpr } from './sast.js';
import { defaultValue, sameTypes, typeText, type KeyStructs, type SolType } from './types.js';

export interface StructInfo {
  name: string;
  fields: { name: string; type: SolType }[];
}

/** What the whole source unit shares: the logs, the structs, the generated mapping-key structs, the names of types. */
export class ProgramContext implements KeyStructs {
  readonly structs = new Map<string, StructInfo>();
  readonly keyStructs: { name: string; keys: SolType[] }[] = [];
  /** Contract, interface and enum names: types sCrypt has no counterpart for. */
  readonly foreignTypes = new Set<string>();
  readonly libraries = new Set<string>();
  /** Contract and interface names (of `foreignTypes`): converting to one is how Solidity calls another contract. */
  readonly contractTypes = new Set<string>();
  /** Event names: old Solidity fires an event by calling it without `emit`. */
  readonly events = new Set<string>();
  /** The parameter names of every named function, by `<contract or library>.<function>` (for calls with named arguments). */
  readonly functionParams = new Map<string, (string | null)[]>();

  constructor(
    readonly source: SourceText,
    readonly logs: Logs,
  ) {}

  keyStructName(keys: SolType[]): string {
    const known = this.keyStructs.find((k) => sameTypes(k.keys, keys));
    if (known) return known.name;
    const name = `MapKeyST${this.keyStructs.length}`;
    this.keyStructs.push({ name, keys });
    return name;
  }

  text(node: BaseASTNode | Span): string {
    const span = 'start' in node ? node : spanOf(node);
    return this.source.text.slice(span.start, span.end);
  }

  error(at: BaseASTNode | Span, message: string): void {
    this.logs.error('start' in at ? at : spanOf(at), message);
  }

  typeText(t: SolType): string {
    return typeText(t, this);
  }

  defaultOf(t: SolType): SExpr | null {
    return defaultValue(t, (name) => this.structs.get(name)?.fields.map((f) => f.type) ?? null);
  }
}

/** `alias`: a storage pointer, which stands for the place it was set to. */
export type SymbolKind = 'state' | 'immutable' | 'constant' | 'local' | 'alias';

export interface SolSymbol {
  kind: SymbolKind;
  type: SolType;
  /** 0 for properties, parameters and generated preludes; 1 for the function body's top level; deeper inside blocks. */
  depth: number;
  target?: Expression;
}

/** Names in scope: the contract's properties at the bottom, then a function's parameters and its blocks. */
export class Scope {
  private readonly frames: Map<string, SolSymbol>[] = [new Map()];

  /** The depth a declaration made now gets. */
  get depth(): number {
    return this.frames.length - 1;
  }

  declare(name: string, kind: SymbolKind, type: SolType, depth = this.depth): void {
    this.frames[this.frames.length - 1].set(name, { kind, type, depth });
  }

  declareAlias(name: string, type: SolType, target: Expression): void {
    this.frames[this.frames.length - 1].set(name, { kind: 'alias', type, depth: this.depth, target });
  }

  lookup(name: string): SolSymbol | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const s = this.frames[i].get(name);
      if (s) return s;
    }
    return undefined;
  }

  push(): void {
    this.frames.push(new Map());
  }

  pop(): void {
    this.frames.pop();
  }
}

/** The contract being transpiled, as functions see it. */
export interface ContractInfo {
  name: string;
  isLibrary: boolean;
  /** Function names of this contract (calls to them become `this.f(…)`, or `f(…)` inside a library). */
  functions: Set<string>;
  /**
   * Its public and external functions, and the getters of its public state variables: sCrypt public
   * functions are entry points, never called from code (sol2scrypt has no rule for such a call).
   */
  publics?: Set<string>;
  /** Public state variables that are neither mappings nor arrays: `this.x()`, their getter, reads `x`. */
  plainGetters?: Set<string>;
  /** Public functions the contract's code calls, by Solidity name: the sCrypt name of their internal copy (called-publics.ts). */
  internalCopies?: Map<string, string>;
  /** Whether the contract has `@state` properties: only then do public functions take the preimage and propagate state. */
  stateful: boolean;
  /** The constructor used `msg.value`: public functions check the initial balance on the first call. */
  initBalance: boolean;
  /** Every loop of the contract: its id, how many times it runs when that can be told, and where it is. */
  loops: { id: number; bound: bigint | null; at: Span }[];
  /**
   * State arrays the contract `push`es to, with their length counters: a fixed sCrypt array standing for a
   * Solidity array that grows up to its declared size (`T[10] xs; xs.push(v)`, as sol2scrypt's programs write it).
   */
  pushed?: Map<string, { size: number; counter: string }>;
}

/** One `m[k]` (or `m[k1][k2]`) of a function: a value parameter and an index parameter stand for it. */
export interface MapEntry {
  valueName: string;
  indexName: string;
  /** The map as printed (`this.balances`, or a parameter's name). */
  map: SExpr;
  /** The key as printed: the key itself, or a key struct literal `{a, b}` for nested mappings. */
  key: SExpr;
  valueType: SolType;
  written: boolean;
  /** The deepest block any name in the key was declared in (0: parameters, properties, literals). */
  depth: number;
  /** When the function changes a name the key is made of, the key is kept in a local where it is first used. */
  snapshot?: { type: string; name: string; init: SExpr };
  /** The names the key is made of, and how often each had been assigned when the entry was first used. */
  keyNames: ReadonlyMap<string, number>;
}

export type FunctionKind = 'public' | 'internal' | 'ctor' | 'library';

/** What a function's transpiling has found so far. */
export class FunctionState {
  senderAt: Span | null = null;
  valueAt: Span | null = null;
  mapAt: Span | null = null;
  readonly entries = new Map<string, MapEntry>();
  /** Entries whose `has`/`canGet` check has not been placed yet. */
  pending: MapEntry[] = [];
  /** Loops being transpiled, innermost last. */
  readonly loops: { id: number; breaks: boolean; continues: boolean }[] = [];
  /** Set when a `return` is not the function's last statement: returns then go through `ret`/`returned`. */
  middleReturn = false;
  /**
   * Set once the body's top level has passed a statement that may return: what follows runs inside
   * `if (!returned)`, so a check placed there may not run while the entry's `set` at the end always does.
   */
  pastReturn = false;
  /** For `return;` in the middle of a function with a named return value. */
  namedReturn: string | null = null;
  /** Names (locals, parameters, properties) the function assigns to. */
  assigned = new Set<string>();
  /** How many assignments to each name have been transpiled so far, in source order. */
  readonly assignments = new Map<string, number>();
  /** Per loop being transpiled, innermost last: the names its condition, body and step assign to. */
  readonly loopAssigned: ReadonlySet<string>[] = [];
  /** Every identifier the function's source uses: generated names avoid them. */
  used = new Set<string>();

  constructor(
    readonly kind: FunctionKind,
    readonly name: string,
    public loopCounter: number,
  ) {}

  /** The index parameter of the next mapping entry: `i<N>`, unless the source has a name like that. */
  nextIndexName(): string {
    const n = this.entries.size;
    return this.used.has(`i${n}`) ? `mapIndex${n}` : `i${n}`;
  }

  get canUseMaps(): boolean {
    return this.kind === 'public' || this.kind === 'ctor';
  }
}
