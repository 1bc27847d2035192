import { Alert, Button, Code, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { CopyAction } from '../../components/CopyField.js';
import { useRef, useState } from 'react';
import { OPERATIONS as OPS, type CompileDiagnostic, type CompileOutput } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { messageOf } from '../../components/errors.js';
import { CodeEditor, type CodeEditorHandle } from '../../components/CodeEditor.js';
import { useSession } from '../../state/store.js';
import { toBase64 } from './base64.js';

/** The offline sCrypt compiler: edit, compile, see errors where they are, download the artifact. */
export function ScryptTab({
  file,
  setFile,
  source,
  setSource,
}: {
  file: string;
  setFile: (f: string) => void;
  source: string;
  setSource: (s: string) => void;
}) {
  const call = useSession((s) => s.call);
  const [optimize, setOptimize] = useState(false);
  const [result, setResult] = useState<CompileOutput | null>(null);
  const [errors, setErrors] = useState<CompileDiagnostic[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editor = useRef<CodeEditorHandle>(null);

  async function compile() {
    setBusy(true);
    setFailure(null);
    try {
      const r = await call(OPS.compile, { sourceCode: toBase64(source), optimize, file });
      setResult(r);
      setErrors(r.errors);
    } catch (err) {
      setResult(null);
      const extra = err instanceof ApiError ? (err as ApiError & { errors?: CompileDiagnostic[] }).errors : undefined;
      if (extra?.length) setErrors(extra);
      else {
        setErrors([]);
        setFailure(messageOf(err));
      }
    } finally {
      setBusy(false);
    }
  }

  /** Puts the cursor at a diagnostic's line and column. */
  function goTo(d: CompileDiagnostic) {
    editor.current?.goTo(d.line, d.column);
  }

  function download() {
    if (!result) return;
    const url = URL.createObjectURL(new Blob([JSON.stringify(result.artifact, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = file.replace(/\.scrypt$/i, '') + '.json';
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        sCrypt compiled to Bitcoin Script on this computer, no network needed. The artifact loads in scryptlib and scrypt-ts.
      </Text>
      <Group align="flex-end">
        <TextInput label="File name" value={file} onChange={(e) => setFile(e.currentTarget.value)} w={240} />
        <Switch label="Optimise (-O)" checked={optimize} onChange={(e) => setOptimize(e.currentTarget.checked)} mb={8} />
        <Button onClick={() => void compile()} loading={busy}>
          Compile
        </Button>
      </Group>
      <CodeEditor ref={editor} value={source} onChange={setSource} diagnostics={errors} />
      {failure && <Alert color="red">{failure}</Alert>}
      {errors.length > 0 && (
        <Alert color="red" title={`${errors.length} error${errors.length > 1 ? 's' : ''}`} data-testid="compile-errors">
          <Stack gap={2}>
            {errors.map((d, i) => (
              <Text key={i} size="sm" ff="monospace" style={{ cursor: 'pointer' }} onClick={() => goTo(d)}>
                {d.file}:{d.line}:{d.column}: {d.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {result && (
        <Paper withBorder p="md" data-testid="compile-result">
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={4}>{String(result.artifact.contract)}</Title>
              <Button variant="default" onClick={download}>
                Download artifact
              </Button>
            </Group>
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
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {result.hex}
            </Code>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
