import { Alert, Button, FileButton, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { OPERATIONS as OPS, type TranspileLog } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { CodeEditor, type CodeEditorHandle, type EditorMark } from '../../components/CodeEditor.js';
import { messageOf } from '../../components/errors.js';
import { useSession } from '../../state/store.js';
import { toBase64 } from './base64.js';

const SAMPLE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract TokenLedger {
    address public issuer;
    mapping(address => uint) balances;

    constructor() {
        issuer = msg.sender;
    }

    function mint(address to, uint amount) external {
        require(msg.sender == issuer, "only the issuer mints");
        balances[to] += amount;
    }

    function transfer(address to, uint amount) external {
        require(balances[msg.sender] >= amount, "insufficient balance");
        balances[msg.sender] -= amount;
        balances[to] += amount;
    }
}
`;

/** A log's start as an editor mark: `src` is `<file>:<line>:<col>:<endLine>:<endCol>`. */
function markOf(l: TranspileLog): EditorMark & { at: string } {
  const m = /^(.*):(\d+):(\d+):(\d+):(\d+)$/.exec(l.src);
  const line = m ? Number(m[2]) : 1;
  const column = m ? Number(m[3]) : 1;
  return {
    line,
    column,
    message: l.message,
    severity: l.type === 'Error' ? 'error' : 'warning',
    at: m ? `${m[1]}:${line}:${column}` : l.src,
  };
}

/**
 * Solidity → sCrypt, offline: edit or open a .sol file, transpile, see each unsupported construct where it
 * is, and take the sCrypt to the sCrypt tab to compile it.
 */
export function SolidityTab({ openInScrypt }: { openInScrypt: (file: string, source: string) => void }) {
  const call = useSession((s) => s.call);
  const [file, setFile] = useState('TokenLedger.sol');
  const [source, setSource] = useState(SAMPLE);
  const [force, setForce] = useState(false);
  const [scrypt, setScrypt] = useState<string | null>(null);
  const [logs, setLogs] = useState<TranspileLog[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editor = useRef<CodeEditorHandle>(null);
  const marks = useMemo(() => logs.map(markOf), [logs]);
  const errors = logs.filter((l) => l.type === 'Error').length;

  async function transpile() {
    setBusy(true);
    setFailure(null);
    try {
      const r = await call(OPS.transpile, { sourceCode: toBase64(source), force, file });
      setScrypt(r.scrypt ?? null);
      setLogs(r.errorLogs);
    } catch (err) {
      setScrypt(null);
      const extra = err instanceof ApiError ? (err as ApiError & { errorLogs?: TranspileLog[] }).errorLogs : undefined;
      setLogs(extra ?? []);
      if (!extra?.length) setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function open(picked: File | null) {
    if (!picked) return;
    setFile(picked.name);
    setSource(await picked.text());
    setScrypt(null);
    setLogs([]);
  }

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Solidity transpiled to sCrypt on this computer, by sol2scrypt&apos;s rules. Every construct sCrypt cannot express is reported where
        it is.
      </Text>
      <Group align="flex-end">
        <TextInput label="File name" value={file} onChange={(e) => setFile(e.currentTarget.value)} w={240} />
        <FileButton onChange={(f) => void open(f)} accept=".sol,text/plain">
          {(props) => (
            <Button variant="default" {...props}>
              Open .sol file
            </Button>
          )}
        </FileButton>
        <Switch label="Keep the sCrypt despite errors" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} mb={8} />
        <Button onClick={() => void transpile()} loading={busy}>
          Transpile
        </Button>
      </Group>
      <CodeEditor ref={editor} language="solidity" value={source} onChange={setSource} diagnostics={marks} />
      {failure && <Alert color="red">{failure}</Alert>}
      {logs.length > 0 && (
        <Alert
          color={errors ? 'red' : 'yellow'}
          title={errors ? `${errors} error${errors > 1 ? 's' : ''}` : `${logs.length} warning${logs.length > 1 ? 's' : ''}`}
          data-testid="transpile-logs"
        >
          <Stack gap={2}>
            {marks.map((m, i) => (
              <Text key={i} size="sm" ff="monospace" style={{ cursor: 'pointer' }} onClick={() => editor.current?.goTo(m.line, m.column)}>
                {m.at}: {m.severity}: {m.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {scrypt !== null && (
        <Paper withBorder p="md" data-testid="transpile-result">
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={4}>sCrypt</Title>
              <Button onClick={() => openInScrypt(file.replace(/\.sol$/i, '') + '.scrypt', scrypt)}>Open in the sCrypt editor</Button>
            </Group>
            <CodeEditor value={scrypt} onChange={setScrypt} diagnostics={[]} label="Transpiled sCrypt" />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
