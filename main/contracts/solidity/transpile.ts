import type {
  ContractDefinition,
  EventDefinition,
  FunctionDefinition,
  StructDefinition,
} from '@solidity-parser/parser/dist/src/ast-types.js';
import { ProgramContext } from './context.js';
import { transpileContract, transpileStruct } from './contracts.js';
import { Logs, SourceText, type TranspileLog } from './logs.js';
import { scryptName } from './names.js';
import { parseSolidity } from './parse.js';
import { printProgram, type SContract, type SStruct } from './sast.js';
import { compareTypeLists } from './types.js';

export type { TranspileLog } from './logs.js';

export interface TranspileResult {
  /** The sCrypt, best effort when there are errors (what could not be transpiled is left out). */
  scrypt: string;
  logs: TranspileLog[];
}

/**
 * Solidity → sCrypt, by sol2scrypt's rules (`../shared/reference/sol2scrypt.md`): the whole source unit
 * is transpiled, every unsupported construct is reported at its position and left out, and transpiling
 * goes on past it. A syntax error is one error log. The same input always gives the same text.
 */
export function transpileSolidity(text: string, opts: { file?: string } = {}): TranspileResult {
  const source = new SourceText(text, opts.file ?? 'contract.sol');
  const logs = new Logs(source);
  const parsed = parseSolidity(source);
  if (!parsed.ok) {
    logs.error(parsed.span, parsed.message);
    return { scrypt: '', logs: logs.items };
  }
  const p = new ProgramContext(source, logs);
  const units = parsed.ast.children;
  const contracts = units.filter((n): n is ContractDefinition => n.type === 'ContractDefinition');

  // Names first, so that a type may be used before (or in another contract than) where it is defined.
  for (const c of contracts) {
    if (c.kind === 'library') p.libraries.add(c.name);
    else {
      p.foreignTypes.add(c.name);
      p.contractTypes.add(c.name);
    }
    for (const sub of c.subNodes) {
      if (sub.type === 'EventDefinition') p.events.add((sub as EventDefinition).name);
      const fn = sub.type === 'FunctionDefinition' ? (sub as FunctionDefinition) : null;
      if (fn?.name)
        p.functionParams.set(
          `${c.name}.${fn.name}`,
          fn.parameters.map((x) => x.name),
        );
      if (sub.type === 'StructDefinition')
        p.structs.set((sub as StructDefinition).name, { name: (sub as StructDefinition).name, fields: [] });
      if (sub.type === 'EnumDefinition') p.foreignTypes.add((sub as unknown as { name: string }).name);
    }
  }
  for (const n of units) {
    if (n.type === 'StructDefinition') p.structs.set(n.name, { name: n.name, fields: [] });
    if (n.type === 'EnumDefinition') p.foreignTypes.add(n.name);
    if (n.type === 'EventDefinition') p.events.add(n.name);
  }

  const imports: string[] = [];
  const structsDone: string[] = [];
  for (const n of units) {
    if (n.type === 'ImportDirective') imports.push(`import "${n.path.replace(/\.sol$/, '.scrypt')}";`);
    else if (n.type === 'StructDefinition') transpileStruct(p, n, structsDone);
    else if (n.type === 'EnumDefinition') {
      const [start, end] = n.range ?? [0, 0];
      logs.error({ start: start + 1, end: end + 1 }, 'unsupported enum definition');
    } else if (
      n.type !== 'PragmaDirective' &&
      n.type !== 'ContractDefinition' &&
      n.type !== 'CustomErrorDefinition' &&
      n.type !== 'EventDefinition'
    ) {
      p.error(
        n,
        `unsupported definition: \`${p
          .text(n)
          .split(/[{;\n]/)[0]
          .trim()}\``,
      );
    }
  }
  // Contracts, then libraries, each in source order (sol2scrypt's order of reports); libraries print first.
  const out: SContract[] = [];
  for (const c of [...contracts.filter((c) => c.kind !== 'library'), ...contracts.filter((c) => c.kind === 'library')]) {
    const sc = transpileContract(p, c, structsDone);
    if (sc) out.push(sc);
  }

  const keyStructs: SStruct[] = [...p.keyStructs]
    .sort((a, b) => compareTypeLists(b.keys, a.keys))
    .map((k) => ({ name: k.name, fields: k.keys.map((t, i) => ({ type: p.typeText(t), name: `key${i}` })) }));
  const userStructs: SStruct[] = structsDone.map((name) => {
    const s = p.structs.get(name);
    return { name: scryptName(name), fields: (s?.fields ?? []).map((f) => ({ type: p.typeText(f.type), name: scryptName(f.name) })) };
  });
  const ordered = [...out.filter((c) => c.kind === 'library'), ...out.filter((c) => c.kind === 'contract')];
  const byPosition = (a: SContract, b: SContract) =>
    contracts.findIndex((c) => scryptName(c.name) === a.name) - contracts.findIndex((c) => scryptName(c.name) === b.name);
  const scrypt = printProgram({
    imports,
    structs: [...keyStructs, ...userStructs],
    contracts: ordered.sort((a, b) => (a.kind === b.kind ? byPosition(a, b) : a.kind === 'library' ? -1 : 1)),
  });
  return { scrypt, logs: logs.items };
}
