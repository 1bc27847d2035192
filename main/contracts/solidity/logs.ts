/**
 * What the transpiler reports, as sol2scrypt reports it: `{type: "Error" | "Warning", message, src}` with
 * `src` = `<file>:<line>:<col>:<endLine>:<endCol>`, lines and columns 1-based, the end exclusive.
 */
export interface TranspileLog {
  src: string;
  type: 'Error' | 'Warning';
  message: string;
}

/** A span of the source as character offsets, the end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** Turns character offsets into 1-based line:column positions. */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo] + 1 };
  }

  src(span: Span): string {
    const a = this.position(span.start);
    const b = this.position(span.end);
    return `${this.file}:${a.line}:${a.column}:${b.line}:${b.column}`;
  }

  /** A 1-based line and 0-based column (the Solidity parser's errors) as a span of one character. */
  spanAt(line: number, column: number): Span {
    const start = (this.lineStarts[line - 1] ?? this.text.length) + column;
    return { start, end: Math.min(start + 1, this.text.length) };
  }
}

/** A node's span from the parser's `range` (inclusive end). */
export function spanOf(node: { range?: [number, number] }): Span {
  const [start, end] = node.range ?? [0, 0];
  return { start, end: end + 1 };
}

/** Collects logs; transpiling goes on past each one. */
export class Logs {
  readonly items: TranspileLog[] = [];

  constructor(private readonly source: SourceText) {}

  error(span: Span, message: string): void {
    this.items.push({ src: this.source.src(span), type: 'Error', message });
  }

  warning(span: Span, message: string): void {
    this.items.push({ src: this.source.src(span), type: 'Warning', message });
  }

  get hasErrors(): boolean {
    return this.items.some((l) => l.type === 'Error');
  }
}
