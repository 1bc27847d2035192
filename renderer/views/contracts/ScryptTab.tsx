import {
  Alert,
  Box,
  Button,
  Code,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { CopyAction } from '../../components/CopyField.js';
import { useRef, useState, type DragEvent } from 'react';
import { OPERATIONS as OPS, type CompileDiagnostic, type CompileOutput } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { messageOf } from '../../components/errors.js';
import { CodeEditor, type CodeEditorHandle } from '../../components/CodeEditor.js';
import { useSession } from '../../state/store.js';
import { toBase64 } from './base64.js';
import { languageOfFile, SCRYPT_SAMPLE, SCRYPT_TS_SAMPLE, type SourceLanguage } from './samples.js';

type Transpiled = NonNullable<CompileOutput['transpiled']>;

const SAMPLES: Record<SourceLanguage, string> = { scrypt: SCRYPT_SAMPLE, 'scrypt-ts': SCRYPT_TS_SAMPLE };
const EXTENSIONS: Record<SourceLanguage, string> = { scrypt: '.scrypt', 'scrypt-ts': '.ts' };

/** Saves `text` as a file named `name`, as a browser download. */
function save(name: string, text: string, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The offline compiler: edit, open or drop an sCrypt or scrypt-ts source, compile, see errors where they
 * are (in the TypeScript for scrypt-ts), see the sCrypt scrypt-ts turned into, download what scrypt-cli
 * would write.
 */
export function ScryptTab({
  file,
  setFile,
  source,
  setSource,
  language,
  setLanguage,
}: {
  file: string;
  setFile: (f: string) => void;
  source: string;
  setSource: (s: string) => void;
  language: SourceLanguage;
  setLanguage: (l: SourceLanguage) => void;
}) {
  const call = useSession((s) => s.call);
  const [optimize, setOptimize] = useState(false);
  const [result, setResult] = useState<CompileOutput | null>(null);
  const [transpiled, setTranspiled] = useState<Transpiled | null>(null);
  const [errors, setErrors] = useState<CompileDiagnostic[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editor = useRef<CodeEditorHandle>(null);
  const generated = useRef<CodeEditorHandle>(null);
  // For scrypt-ts, an error is in the TypeScript unless it names the generated sCrypt.
  const inGenerated = (d: CompileDiagnostic) => transpiled !== null && d.file === transpiled.file;
  const sourceMarks = language === 'scrypt-ts' ? errors.filter((d) => !inGenerated(d)) : errors;
  const generatedMarks = errors.filter(inGenerated);

  function reset() {
    setResult(null);
    setTranspiled(null);
    setErrors([]);
    setFailure(null);
  }

  async function compile() {
    setBusy(true);
    setFailure(null);
    try {
      const r = await call(OPS.compile, { sourceCode: toBase64(source), optimize, file, language });
      setResult(r);
      setTranspiled(r.transpiled ?? null);
      setErrors(r.errors);
    } catch (err) {
      setResult(null);
      const extra = err instanceof ApiError ? (err as ApiError & { errors?: CompileDiagnostic[]; transpiled?: Transpiled }) : undefined;
      // The sCrypt comes back beside errors that are in it, so they can be shown where they are.
      setTranspiled(extra?.transpiled ?? null);
      if (extra?.errors?.length) setErrors(extra.errors);
      else {
        setErrors([]);
        setFailure(messageOf(err));
      }
    } finally {
      setBusy(false);
    }
  }

  /** Another language: the file is renamed to its extension, and an untouched sample becomes the other one. */
  function choose(next: SourceLanguage) {
    if (next === language) return;
    setLanguage(next);
    setFile(file.replace(/(\.scrypt|\.ts)?$/i, EXTENSIONS[next]));
    if (source === SAMPLES[language]) setSource(SAMPLES[next]);
    reset();
  }

  async function open(picked: File | null | undefined) {
    if (!picked) return;
    setFile(picked.name);
    setLanguage(languageOfFile(picked.name));
    setSource(await picked.text());
    reset();
  }

  // Caught before the editor sees it: CodeMirror would insert a dropped file's text where it fell.
  function drop(e: DragEvent) {
    if (!e.dataTransfer.files.length) return;
    e.preventDefault();
    e.stopPropagation();
    void open(e.dataTransfer.files[0]);
  }

  /** `<Name>` as scrypt-cli names the files it writes: the source file's name without its extension. */
  const name = transpiled ? transpiled.file.replace(/\.scrypt$/i, '') : file.replace(/^.*[\\/]/, '').replace(/\.(scrypt|ts)$/i, '');

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        sCrypt, or scrypt-ts (TypeScript, transpiled to sCrypt first), compiled to Bitcoin Script on this computer, no network needed. The
        artifact loads in scryptlib and scrypt-ts.
      </Text>
      <Group align="flex-end">
        <TextInput label="File name" value={file} onChange={(e) => setFile(e.currentTarget.value)} w={240} />
        <SegmentedControl
          aria-label="Language"
          value={language}
          onChange={(v) => choose(v as SourceLanguage)}
          data={[
            { label: 'sCrypt', value: 'scrypt' },
            { label: 'scrypt-ts', value: 'scrypt-ts' },
          ]}
        />
        <FileButton onChange={(f) => void open(f)} accept=".scrypt,.ts,text/plain">
          {(props) => (
            <Button variant="default" {...props}>
              Open file
            </Button>
          )}
        </FileButton>
        <Switch label="Optimise (-O)" checked={optimize} onChange={(e) => setOptimize(e.currentTarget.checked)} mb={8} />
        <Button onClick={() => void compile()} loading={busy}>
          Compile
        </Button>
      </Group>
      <Box onDragOver={(e) => e.preventDefault()} onDropCapture={drop} data-testid="source-drop">
        <CodeEditor
          key={language}
          ref={editor}
          language={language === 'scrypt-ts' ? 'typescript' : 'scrypt'}
          value={source}
          onChange={setSource}
          diagnostics={sourceMarks}
        />
      </Box>
      {failure && <Alert color="red">{failure}</Alert>}
      {errors.length > 0 && (
        <Alert color="red" title={`${errors.length} error${errors.length > 1 ? 's' : ''}`} data-testid="compile-errors">
          <Stack gap={2}>
            {errors.map((d, i) => (
              <Text
                key={i}
                size="sm"
                ff="monospace"
                style={{ cursor: 'pointer' }}
                onClick={() => (inGenerated(d) ? generated : editor).current?.goTo(d.line, d.column)}
              >
                {d.file}:{d.line}:{d.column}: {d.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {(result || transpiled) && (
        <Paper withBorder p="md" data-testid="compile-result">
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={4}>{result ? String(result.artifact.contract) : name}</Title>
              <Group gap="xs">
                {transpiled && (
                  <>
                    <Button variant="default" onClick={() => save(`${name}.scrypt`, transpiled.scrypt, 'text/plain')}>
                      Download .scrypt
                    </Button>
                    <Button
                      variant="default"
                      onClick={() => save(`${name}.transformer.json`, JSON.stringify(transpiled.transformer, null, 2))}
                    >
                      Download .transformer.json
                    </Button>
                  </>
                )}
                {result && (
                  <Button variant="default" onClick={() => save(`${name}.json`, JSON.stringify(result.artifact, null, 2))}>
                    Download artifact
                  </Button>
                )}
              </Group>
            </Group>
            {/* Panels mount when shown: CodeMirror measures its lines when it is created, wrongly when hidden. */}
            <Tabs defaultValue={result ? 'script' : 'generated'} key={result ? 'compiled' : 'failed'} keepMounted={false}>
              <Tabs.List>
                {result && <Tabs.Tab value="script">Script</Tabs.Tab>}
                {transpiled && <Tabs.Tab value="generated">Generated sCrypt</Tabs.Tab>}
                {result && <Tabs.Tab value="artifact">Artifact</Tabs.Tab>}
              </Tabs.List>
              {result && (
                <Tabs.Panel value="script" pt="xs">
                  <Stack gap="xs">
                    <Group gap={4}>
                      <Text size="sm" c="dimmed">
                        ASM (constructor arguments as $name)
                      </Text>
                      <CopyAction label="ASM" value={result.scrypt} />
                    </Group>
                    <Code block data-testid="compile-asm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                      {result.scrypt}
                    </Code>
                    <Group gap={4}>
                      <Text size="sm" c="dimmed">
                        Hex template
                      </Text>
                      <CopyAction label="hex" value={result.hex} />
                    </Group>
                    <Code block data-testid="compile-hex" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                      {result.hex}
                    </Code>
                  </Stack>
                </Tabs.Panel>
              )}
              {transpiled && (
                <Tabs.Panel value="generated" pt="xs">
                  <CodeEditor
                    ref={generated}
                    value={transpiled.scrypt}
                    onChange={() => {}}
                    diagnostics={generatedMarks}
                    label="Generated sCrypt"
                    readOnly
                  />
                </Tabs.Panel>
              )}
              {result && (
                <Tabs.Panel value="artifact" pt="xs">
                  <Code block data-testid="compile-artifact" style={{ maxHeight: '24rem', overflow: 'auto' }}>
                    {JSON.stringify(result.artifact, null, 2)}
                  </Code>
                </Tabs.Panel>
              )}
            </Tabs>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
