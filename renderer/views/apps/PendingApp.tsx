import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { OPERATIONS as OPS, type AppOutput } from '../../../shared/operations.js';
import { formatTime } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { AnsweringWallet } from './AllowApp.js';
import { chosenWallet, DEFAULT_CHOICE, type WalletWords } from './app-words.js';

/**
 * An app whose first call waits for a decision: allow it (naming the wallet that answers it) or deny it.
 * Its waiting calls go on, or are refused, as soon as this is decided.
 */
export function PendingApp(props: WalletWords & { app: AppOutput; onDecided: () => Promise<void> }) {
  const { app } = props;
  const call = useSession((s) => s.call);
  const headingId = useId();
  const [wallet, setWallet] = useState<string>(DEFAULT_CHOICE);
  const decide = (allow: boolean) => async () => {
    await call(OPS.decideApp, { originator: app.originator, allow, walletId: allow ? chosenWallet(wallet) : undefined });
    notifySuccess(allow ? `${app.originator} is allowed.` : `${app.originator} is denied.`);
    await props.onDecided();
  };
  const allowing = useSubmit(decide(true), ['walletId']);
  const denying = useSubmit(decide(false));
  const busy = allowing.busy || denying.busy;
  const error = allowing.error ?? denying.error;

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="md"
      style={{ borderColor: 'var(--mantine-color-yellow-6)', borderWidth: 2 }}
      data-testid="pending-app"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={4} id={headingId} ff="monospace" style={{ wordBreak: 'break-all' }}>
            {app.originator}
          </Title>
          <Badge color="yellow" variant="light">
            waiting
          </Badge>
        </Group>
        <Text size="sm">
          Wants to use the organisation's wallet (first call {formatTime(app.firstSeenAt)}). Its calls wait until you allow or deny it.
        </Text>
        <Group align="flex-end">
          <AnsweringWallet
            wallets={props.wallets}
            defaultWalletId={props.defaultWalletId}
            value={wallet}
            onChange={setWallet}
            error={allowing.fieldErrors.walletId}
          />
          <Group gap="xs">
            <Button loading={allowing.busy} disabled={busy && !allowing.busy} onClick={() => void allowing.run()}>
              Allow
            </Button>
            <Button color="red" variant="light" loading={denying.busy} disabled={busy && !denying.busy} onClick={() => void denying.run()}>
              Deny
            </Button>
          </Group>
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
