import { Alert, Button, FileInput, Group, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { useState } from 'react';
import { MAX_POST_BYTES, MAX_UPLOAD_BYTES } from '../../shared/contracts/utilities.js';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { CopyField } from '../components/CopyField.js';
import { formatSats } from '../components/format.js';
import { useSubmit } from '../components/useSubmit.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useWallets } from '../components/useWallets.js';
import { useSession } from '../state/store.js';
import { LocalCheck } from '../components/errors.js';

/** The file's bytes as base64 (what upload takes), read in the renderer. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Writes text, JSON or a file on chain from a wallet (an OP_FALSE OP_RETURN output; files in the B:// layout). */
export function DataView() {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const [walletPassword, setWalletPassword] = useState('');
  const [mode, setMode] = useState<'text' | 'json' | 'file'>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<{ txid: string; fee: number; uri?: string } | null>(null);
  const secure = wallets.data?.find((w) => w.walletID === walletId)?.type === 'secure';

  const write = useSubmit(async () => {
    setDone(null);
    const wallet = { walletId: walletId ?? undefined, walletPassword: walletPassword || undefined };
    if (mode === 'file') {
      if (!file) throw new LocalCheck('Choose a file.');
      if (file.size > MAX_UPLOAD_BYTES) throw new LocalCheck(`The file is ${file.size} bytes; ${MAX_UPLOAD_BYTES} at most.`);
      const r = await call(OPS.upload, { ...wallet, file: await base64Of(file), contentType: file.type || undefined, fileName: file.name });
      setDone({ txid: r.txid, fee: r.fee, uri: r.uri });
      return;
    }
    let payload: unknown = text;
    if (mode === 'json') {
      try {
        payload = JSON.parse(text);
      } catch (err) {
        throw new LocalCheck(`Not valid JSON: ${(err as Error).message}`, { cause: err });
      }
    }
    const r = await call(OPS.post, { ...wallet, payload });
    setDone({ txid: r.txid, fee: r.fee });
  });

  return (
    <Stack maw={720}>
      <Title order={2}>Write data on chain</Title>
      <Paper withBorder p="md">
        <form onSubmit={write.onSubmit}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              The data goes in an unspendable output of a transaction from the wallet, public for good. The network fee is paid as for any
              payment.
            </Text>
            <WalletSelect label="From wallet" wallets={wallets.data} value={walletId} onChange={setWalletId} />
            {secure && (
              <PasswordField
                label="Wallet password"
                value={walletPassword}
                onChange={(e) => setWalletPassword(e.currentTarget.value)}
                required
              />
            )}
            <Stack gap={4}>
              <Text component="label" id="data-kind" size="sm" fw={500}>
                What to write
              </Text>
              <SegmentedControl
                aria-labelledby="data-kind"
                value={mode}
                onChange={(v) => setMode(v as typeof mode)}
                data={[
                  { value: 'text', label: 'Text' },
                  { value: 'json', label: 'JSON' },
                  { value: 'file', label: 'File' },
                ]}
              />
            </Stack>
            {mode === 'file' ? (
              <FileInput
                label="File"
                description={`Written in the B:// layout with its media type; ${MAX_UPLOAD_BYTES.toLocaleString('en-US')} bytes at most.`}
                value={file}
                onChange={setFile}
                clearable
                required
              />
            ) : (
              <Textarea
                label={mode === 'json' ? 'JSON' : 'Text'}
                description={`${MAX_POST_BYTES.toLocaleString('en-US')} bytes at most.`}
                autosize
                minRows={4}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                required
              />
            )}
            {write.error && <Alert color="red">{write.error}</Alert>}
            {done && (
              <Alert color="green" title="Written" data-testid="data-result">
                <Stack gap="xs">
                  <Text size="sm">Fee {formatSats(done.fee)}.</Text>
                  <CopyField label="Transaction id" value={done.txid} />
                  {done.uri && <CopyField label="B:// URI" value={done.uri} />}
                </Stack>
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={write.busy}>
                Write on chain
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
