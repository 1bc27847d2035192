import { Alert, Anchor, List, Text, ThemeIcon } from '@mantine/core';
import type { WalletSummary } from '../../shared/operations.js';

/** A step's marker: its number, or a tick once it is done (said in words too, for a screen reader). */
function Marker({ n, done }: { n: number; done: boolean }) {
  return (
    <ThemeIcon size={22} radius="xl" color={done ? 'teal' : 'blue'} variant={done ? 'filled' : 'light'} aria-hidden>
      <Text size="xs" fw={700}>
        {done ? '✓' : n}
      </Text>
    </ThemeIcon>
  );
}

/**
 * A new user's first steps, one per line, until a wallet of theirs holds coins: create a wallet, write its
 * recovery phrase down, receive coins (test coins, on the local chain). Steps already done are ticked.
 */
export function GettingStarted({ wallets }: { wallets: WalletSummary[] }) {
  const funded = wallets.some((w) => w.balance.confirmed + w.balance.unconfirmed > 0);
  if (funded) return null;
  const made = wallets.length > 0;
  return (
    <Alert color="blue" title="Getting started" data-testid="getting-started">
      <List spacing="xs" size="sm" center styles={{ itemLabel: { lineHeight: 1.5 } }}>
        <List.Item icon={<Marker n={1} done={made} />} data-testid="step-wallet">
          {made ? (
            <>
              Done: you have a wallet (
              <Anchor href="#/wallets" inherit>
                Wallets
              </Anchor>
              ).
            </>
          ) : (
            <>
              Create a wallet in{' '}
              <Anchor href="#/wallets" inherit>
                Wallets
              </Anchor>{' '}
              (New wallet).
            </>
          )}
        </List.Item>
        <List.Item icon={<Marker n={2} done={false} />}>
          Back up its recovery phrase at once (Back up, beside the wallet): written down and kept offline, it is the only way to restore the
          wallet if this computer or its data is lost.
        </List.Item>
        <List.Item icon={<Marker n={3} done={false} />}>
          Receive coins at its address or paymail (
          <Anchor href="#/receive" inherit>
            Receive
          </Anchor>
          ). On the local test chain, Get test coins there gives you free ones.
        </List.Item>
      </List>
    </Alert>
  );
}
