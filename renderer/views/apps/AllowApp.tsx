import { Button, Group, Modal, Paper, Select, Stack, Text, TextInput, Title, Alert } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type AppOutput } from '../../../shared/operations.js';
import { FormFooter } from '../../components/FormFooter.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { chosenWallet, DEFAULT_CHOICE, walletChoices, type WalletWords } from './app-words.js';

/** The wallet that answers an app: the default wallet for apps, or one of the user's wallets. */
export function AnsweringWallet(props: WalletWords & { value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <Select
      label="Wallet that answers it"
      data={walletChoices(props.wallets, props.defaultWalletId, props.value)}
      value={props.value}
      onChange={(v) => props.onChange(v ?? DEFAULT_CHOICE)}
      allowDeselect={false}
      error={props.error}
      // Wide enough for "Default wallet for apps (organisation default)": a narrow window puts it on a line of its own.
      style={{ flex: '1 1 340px', maxWidth: 420 }}
    />
  );
}

/** Names an app not seen yet, so its first call is answered at once instead of waiting for a decision. */
export function AllowBeforeItCalls(props: WalletWords & { onAllowed: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const [originator, setOriginator] = useState('');
  const [wallet, setWallet] = useState(DEFAULT_CHOICE);
  const save = useSubmit(async () => {
    const app = await call(OPS.decideApp, { originator, allow: true, walletId: chosenWallet(wallet) });
    notifySuccess(`${app.originator} is allowed.`);
    setOriginator('');
    setWallet(DEFAULT_CHOICE);
    await props.onAllowed();
  }, ['originator', 'walletId']);
  return (
    <Paper component="section" aria-labelledby="allow-before-it-calls" withBorder p="md">
      <Title order={3} size="h4" id="allow-before-it-calls" mb="xs">
        Allow an app before it calls
      </Title>
      <form onSubmit={save.onSubmit} noValidate>
        <Group align="flex-start">
          <TextInput
            label="App"
            description="The domain it calls from, with its port if it has one: app.example, localhost:8080"
            required
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={originator}
            onChange={(e) => setOriginator(e.currentTarget.value)}
            error={save.fieldErrors.originator}
            style={{ flex: '1 1 240px', maxWidth: 420 }}
          />
          <AnsweringWallet {...props} value={wallet} onChange={setWallet} error={save.fieldErrors.walletId} />
        </Group>
        <Group mt="sm">
          <Button type="submit" loading={save.busy}>
            Allow app
          </Button>
        </Group>
        {save.error && (
          <Alert color="red" role="alert" mt="sm">
            {save.error}
          </Alert>
        )}
      </form>
    </Paper>
  );
}

/** Allows a denied or revoked app again, with the wallet that answers it. */
export function AllowAgain(props: WalletWords & { app: AppOutput; onClose: () => void; onAllowed: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const [wallet, setWallet] = useState(props.app.walletId ?? DEFAULT_CHOICE);
  const save = useSubmit(async () => {
    await call(OPS.decideApp, { originator: props.app.originator, allow: true, walletId: chosenWallet(wallet) });
    notifySuccess(`${props.app.originator} is allowed.`);
    await props.onAllowed();
    props.onClose();
  }, ['walletId']);
  return (
    <Modal opened onClose={props.onClose} title={`Allow ${props.app.originator}`} centered>
      <form onSubmit={save.onSubmit}>
        <Stack gap="sm">
          <Text size="sm">Its calls are then answered by this wallet, until it is revoked.</Text>
          <AnsweringWallet {...props} value={wallet} onChange={setWallet} error={save.fieldErrors.walletId} />
          <FormFooter error={save.error} onCancel={props.onClose} submitLabel="Allow app" busy={save.busy} />
        </Stack>
      </form>
    </Modal>
  );
}
