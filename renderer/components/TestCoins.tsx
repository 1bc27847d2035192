import { Alert, Button, Group, Text } from '@mantine/core';
import { OPERATIONS as OPS, canCall } from '../../shared/operations.js';
import { useSession } from '../state/store.js';
import { formatSats } from './format.js';
import { notifySuccess } from './notify.js';
import { useLoad } from './useLoad.js';
import { useSubmit } from './useSubmit.js';

/** What "Get test coins" asks the local chain's faucet for (as the Network page offers by default). */
export const TEST_COINS_SATOSHIS = 100_000;

/**
 * An empty wallet on the local test chain: its test coins one click away, where a new user looks (Receive,
 * Wallets), with the same faucet call as the Network page. Shows nothing on a real network, or to a role
 * the faucet is not open to.
 */
export function TestCoins({ walletId, walletTitle, onDone }: { walletId: string; walletTitle: string; onDone: () => void }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const allowed = canCall(role, OPS.faucet);
  const status = useLoad(async () => (allowed ? (await call(OPS.networkStatus, {})).faucet : false), [allowed]);
  const get = useSubmit(async () => {
    const r = await call(OPS.faucet, { walletId, satoshis: TEST_COINS_SATOSHIS });
    notifySuccess(`${formatSats(r.satoshis)} of test coins sent to “${walletTitle}” (${r.address}).`);
    onDone();
  });
  if (status.data !== true) return null;
  return (
    <Alert color="teal" title={`“${walletTitle}” is empty`} data-testid="test-coins">
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" style={{ flex: '1 1 240px' }}>
          This Keystead runs on its local test chain: test coins are free, and exist only here. More (and mining) under Network.
        </Text>
        <Button color="teal" onClick={() => void get.run()} loading={get.busy}>
          Get test coins
        </Button>
      </Group>
      {get.error && (
        <Text size="sm" c="red" mt="xs" role="alert">
          {get.error}
        </Text>
      )}
    </Alert>
  );
}
