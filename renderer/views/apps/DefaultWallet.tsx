import { Alert, Button, Group, Paper, Select, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS } from '../../../shared/operations.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { defaultWalletName, DEFAULT_CHOICE, walletName, type WalletWords } from './app-words.js';

/** The wallet that answers apps allowed without one of their own; admins change it, managers see it. */
export function DefaultWallet(props: WalletWords & { onSaved: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me?.role ?? null);
  const [value, setValue] = useState(props.defaultWalletId ?? DEFAULT_CHOICE);
  const save = useSubmit(async () => {
    const r = await call(OPS.setAppsDefaultWallet, { walletId: value === DEFAULT_CHOICE ? null : value });
    notifySuccess(`Apps without a wallet of their own are now answered by ${defaultWalletName(r.defaultWalletId, props.wallets)}.`);
    await props.onSaved();
  }, ['walletId']);
  const current = props.defaultWalletId;
  const choices = [
    { value: DEFAULT_CHOICE, label: "The organisation's default wallet" },
    ...(props.wallets ?? []).map((w) => ({ value: w.walletID, label: w.walletTitle })),
    ...(current && !props.wallets?.some((w) => w.walletID === current)
      ? [{ value: current, label: walletName(current, props.wallets) }]
      : []),
  ];

  return (
    <Paper component="section" aria-labelledby="apps-default-wallet" withBorder p="md">
      <Title order={3} size="h4" id="apps-default-wallet" mb="xs">
        Default wallet for apps
      </Title>
      {canCall(role, OPS.setAppsDefaultWallet) ? (
        <form onSubmit={save.onSubmit}>
          <Group align="flex-end">
            <Select
              label="Answers apps allowed without a wallet of their own"
              data={choices}
              value={value}
              onChange={(v) => setValue(v ?? DEFAULT_CHOICE)}
              allowDeselect={false}
              error={save.fieldErrors.walletId}
              style={{ flex: '1 1 240px', maxWidth: 420 }}
            />
            <Button type="submit" variant="default" loading={save.busy}>
              Save default
            </Button>
          </Group>
          {save.error && (
            <Alert color="red" role="alert" mt="sm">
              {save.error}
            </Alert>
          )}
        </form>
      ) : (
        <Text size="sm" data-testid="apps-default-wallet">
          Apps allowed without a wallet of their own are answered by {defaultWalletName(current, props.wallets)}. An admin can change it.
        </Text>
      )}
    </Paper>
  );
}
