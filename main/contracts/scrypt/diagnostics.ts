/** A position in a source file: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

export interface Span {
  start: Position;
  end: Position;
}

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

/** Collects diagnostics so a pass can report several problems at once instead of stopping at the first. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];

  constructor(readonly file: string) {}

  error(at: Position, message: string): void {
    // One error per position: a second one there is a cascade of the first.
    if (this.items.some((d) => d.line === at.line && d.column === at.column)) return;
    this.items.push({ file: this.file, line: at.line, column: at.column, message, severity: 'error' });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/** "Foo.scrypt:3:14: error: expected ';'" — the form editors and terminals understand. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}
