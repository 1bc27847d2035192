import { Anchor, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS } from '../../shared/operations.js';
import { useWallets } from '../components/useWallets.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useSession } from '../state/store.js';
import { Holdings } from './tokens/Holdings.js';
import { IssueForm } from './tokens/IssueForm.js';
import { Ordinals } from './tokens/Ordinals.js';
import { Swaps } from './tokens/Swaps.js';
import { Templates } from './tokens/Templates.js';

/** Tokens: what each wallet holds, issuing, sending and redeeming, NFT serials, swaps, ordinals, and (admins) the licensed templates. */
export function TokensView() {
  const role = useSession((s) => s.me!.role);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  // Asked with no wallet the engine makes the user a default one: each tab that reads a wallet waits for the one
  // the list picks, and a user with no wallet is told where to make one.
  const forWallet = (tab: ReactNode) =>
    walletId !== null ? (
      tab
    ) : wallets.data?.length === 0 ? (
      <Text c="dimmed" data-testid="tokens-no-wallet">
        Tokens are held by a wallet, and you have none yet: create one in{' '}
        <Anchor href="#/wallets" inherit>
          Wallets
        </Anchor>
        .
      </Text>
    ) : (
      <Loader size="sm" />
    );
  const changed = () => {
    setRefresh((n) => n + 1);
    void wallets.reload();
  };
  return (
    <Stack maw={1000}>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Tokens</Title>
        <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} />
      </Group>
      <Tabs defaultValue="holdings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="holdings">Holdings</Tabs.Tab>
          {canCall(role, OPS.issueToken) && <Tabs.Tab value="issue">Issue</Tabs.Tab>}
          {canCall(role, OPS.listOffers) && <Tabs.Tab value="swaps">Swaps</Tabs.Tab>}
          {canCall(role, OPS.listOrdinals) && <Tabs.Tab value="ordinals">Ordinals</Tabs.Tab>}
          {canCall(role, OPS.installTokenTemplate) && <Tabs.Tab value="templates">Templates</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="holdings" pt="md">
          {forWallet(<Holdings walletId={walletId} refresh={refresh} onChanged={changed} />)}
        </Tabs.Panel>
        <Tabs.Panel value="issue" pt="md">
          {forWallet(<IssueForm walletId={walletId} onIssued={changed} />)}
        </Tabs.Panel>
        <Tabs.Panel value="swaps" pt="md">
          {forWallet(<Swaps walletId={walletId} refresh={refresh} onChanged={changed} />)}
        </Tabs.Panel>
        <Tabs.Panel value="ordinals" pt="md">
          {forWallet(<Ordinals walletId={walletId} refresh={refresh} onChanged={changed} />)}
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="md">
          <Templates />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
