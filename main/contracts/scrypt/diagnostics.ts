/** A position in a source file: 1-based line and column; `file` when it is in an imported file. */
export interface Position {
  line: number;
  column: number;
  file?: string;
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

/** At most this many diagnostics are kept: past it, more errors are cascades nobody reads. */
export const MAX_DIAGNOSTICS = 100;

/**
 * Collects diagnostics so a pass can report several problems at once instead of stopping at the first.
 * Linear in the number of errors (one per position, looked up in a set) and capped, so a hostile source
 * with errors everywhere costs no more than one with a hundred.
 */
export class Diagnostics {
  readonly items: Diagnostic[] = [];
  private readonly positions = new Set<string>();
  private full = false;

  constructor(readonly file: string) {}

  error(at: Position, message: string): void {
    // One error per position: a second one there is a cascade of the first.
    const key = `${at.file ?? ''}:${at.line}:${at.column}`;
    if (this.full || this.positions.has(key)) return;
    this.positions.add(key);
    if (this.items.length === MAX_DIAGNOSTICS - 1) {
      this.full = true;
      message = `${message} (and more errors after this one; only the first ${MAX_DIAGNOSTICS} are reported)`;
    }
    this.items.push({ file: at.file ?? this.file, line: at.line, column: at.column, message, severity: 'error' });
  }

  get hasErrors(): boolean {
    return this.items.length > 0;
  }

  /** Where the list stands, to undo what a speculative parse reported. */
  mark(): number {
    return this.items.length;
  }

  rewind(mark: number): void {
    for (const d of this.items.splice(mark)) this.positions.delete(`${d.file === this.file ? '' : d.file}:${d.line}:${d.column}`);
    this.full = this.items.length >= MAX_DIAGNOSTICS;
  }
}

/** "Foo.scrypt:3:14: error: expected ';'" — the form editors and terminals understand. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}
