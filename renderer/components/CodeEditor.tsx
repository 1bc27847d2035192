import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, EditorState, type Text } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

/** A compiler message at a 1-based line and column (the shape the compile API returns). */
export interface EditorMark {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

/** What the view can ask of the editor beyond its value. */
export interface CodeEditorHandle {
  /** Selects the token at a 1-based line and column, scrolls to it and focuses the editor. */
  goTo(line: number, column: number): void;
}

/** The words each language colours; everything else about the two is alike enough for one tokenizer. */
const WORDS = {
  scrypt: {
    keywords:
      'contract library struct function public private static const constructor require return if else loop auto type import asm new this true false exit',
    types: 'int bool bytes PubKey Sig Ripemd160 PubKeyHash Sha1 Sha256 SigHashType SigHashPreimage OpCodeType PrivKey',
  },
  solidity: {
    keywords:
      'pragma solidity import contract library interface abstract is struct enum event error emit function modifier constructor receive fallback public private internal external pure view payable constant immutable memory storage calldata returns return if else for while do break continue require assert revert new delete this true false mapping using unchecked try catch assembly',
    types:
      'address bool string bytes byte int uint int8 int16 int32 int64 int128 int256 uint8 uint16 uint32 uint64 uint128 uint256 bytes1 bytes4 bytes8 bytes16 bytes20 bytes32',
  },
  typescript: {
    keywords:
      'import export from as class extends implements interface type enum public private protected readonly static constructor super function return if else for while do break continue const let var new this true false null undefined typeof instanceof in of void throw try catch',
    types:
      'bigint boolean number string ByteString PubKey Sig Ripemd160 PubKeyHash Sha1 Sha256 SigHashPreimage FixedArray HashedMap HashedSet',
  },
} as const;

export type CodeLanguage = keyof typeof WORDS;

interface LexState {
  /** A block comment runs on past the end of the line being tokenised. */
  inComment: boolean;
}

function blockComment(stream: StringStream, state: LexState): string {
  state.inComment = !stream.match(/^[\s\S]*?\*\//);
  if (state.inComment) stream.skipToEnd();
  return 'comment';
}

/**
 * Just enough of a tokenizer to colour sCrypt or Solidity; the compiler and the transpiler are the real
 * parsers, so this never has to be right about structure, only about where words, strings and comments
 * begin and end.
 */
function languageOf(lang: CodeLanguage) {
  const keywords = new Set(WORDS[lang].keywords.split(' '));
  const types = new Set(WORDS[lang].types.split(' '));
  return StreamLanguage.define<LexState>({
    name: lang,
    startState: () => ({ inComment: false }),
    token(stream, state) {
      if (state.inComment) return blockComment(stream, state);
      if (stream.eatSpace()) return null;
      if (stream.match('//')) {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.match('/*')) return blockComment(stream, state);
      // Before identifiers, or the `b` of b'00ff' (the `hex` of hex"00ff") would be read as a name.
      if (lang !== 'typescript' && stream.match(lang === 'scrypt' ? /^b'[^']*'?/ : /^hex"[^"]*"?/)) return 'string.special';
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
      if (lang === 'typescript' && stream.match(/^(?:'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)/)) return 'string';
      if (lang === 'typescript' && stream.match(/^@\w+/)) return 'meta';
      if (stream.match(/^(?:0x[0-9a-fA-F_]+|\d[\d_]*(?:e\d+)?)n?\b/)) return 'number';
      if (stream.match(/^[A-Za-z_$][\w$]*/)) {
        const word = stream.current();
        if (word === 'true' || word === 'false') return 'bool';
        if (keywords.has(word)) return 'keyword';
        if (types.has(word)) return 'typeName';
        return 'variableName';
      }
      if (stream.match(/^[()[\]{}]/)) return 'bracket';
      if (stream.match(/^[-+*/%=!<>&|^~?:]+/)) return 'operator';
      stream.next();
      return null;
    },
    languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
  });
}

const LANGUAGES = { scrypt: languageOf('scrypt'), solidity: languageOf('solidity'), typescript: languageOf('typescript') };
const LABELS: Record<CodeLanguage, string> = { scrypt: 'sCrypt source', solidity: 'Solidity source', typescript: 'scrypt-ts source' };

/** Looks like a Mantine input (border, radius, focus ring) so the editor doesn't stand out in the form. */
const theme = EditorView.theme({
  '&': {
    fontSize: '13px',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-default)',
    backgroundColor: 'var(--mantine-color-body)',
  },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--mantine-primary-color-filled)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
  // On content and gutters, not the scroller, so the gutter runs the full height of an almost empty file.
  '.cm-content, .cm-gutter': { minHeight: '18rem' },
  '.cm-gutters': { borderTopLeftRadius: 'var(--mantine-radius-default)', borderBottomLeftRadius: 'var(--mantine-radius-default)' },
});

/** Marks value changes that came in through props, so they aren't echoed back through onChange. */
const external = Annotation.define<boolean>();

/** 1-based line/column → the range of the word there (one character if none), clamped to the document. */
function rangeAt(doc: Text, lineNo: number, column: number): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, lineNo), doc.lines));
  const start = Math.min(Math.max(0, column - 1), line.length);
  const word = /^\w+/.exec(line.text.slice(start))?.[0].length ?? 0;
  const to = Math.min(start + Math.max(word, 1), line.length);
  return { from: line.from + start, to: line.from + to };
}

/**
 * A source editor (sCrypt or Solidity): CodeMirror 6 behind a controlled-input interface (value/onChange)
 * with compiler or transpiler diagnostics drawn in place. CodeMirror owns its DOM, so React only mounts it
 * once and feeds it changes.
 */
export function CodeEditor({
  value,
  onChange,
  diagnostics,
  language = 'scrypt',
  label = LABELS[language],
  readOnly = false,
  ref,
}: {
  value: string;
  onChange: (value: string) => void;
  diagnostics: readonly EditorMark[];
  language?: CodeLanguage;
  label?: string;
  /** Shown, selectable and copyable, not editable (generated code). Fixed for the editor's lifetime. */
  readOnly?: boolean;
  ref?: Ref<CodeEditorHandle>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The view is created once; these refs give its listeners the latest props without recreating it.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          bracketMatching(),
          LANGUAGES[language],
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          theme,
          // The content element is what receives focus and typing, so it carries the accessible name.
          EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false' }),
          EditorState.readOnly.of(readOnly),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(external))) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // label, language and readOnly are fixed for an editor's lifetime; a new label would need a reconfigure, which nobody needs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Value set from outside (a reset, a loaded file): replace the document unless it already matches, which
  // is the case for every change that started in the editor itself, so typing never loops.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: external.of(true) });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const doc = v.state.doc;
    const marks: Diagnostic[] = diagnostics.map((d) => ({ ...rangeAt(doc, d.line, d.column), severity: d.severity, message: d.message }));
    v.dispatch(setDiagnostics(v.state, marks));
  }, [diagnostics]);

  useImperativeHandle(
    ref,
    () => ({
      goTo(line, column) {
        const v = view.current;
        if (!v) return;
        const { from, to } = rangeAt(v.state.doc, line, column);
        v.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
        v.focus();
      },
    }),
    [],
  );

  return <div ref={host} />;
}
