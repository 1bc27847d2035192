import { Alert, Badge, Button, Group, Image, Loader, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS, type BalanceOutput, type LookupCoin } from '../../../shared/operations.js';
import { isNftProtocol, isTokenProtocol } from '../../../shared/token-protocols.js';
import { HIDE_NARROW, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { MoveTokens } from './MoveTokens.js';
import { TokenDetails } from './TokenDetails.js';
import { formatTokenAmount } from './token-amount.js';

/** The tokens a wallet holds, with their details, and sending and redeeming them. */
export function Holdings({ walletId, refresh, onChanged }: { walletId: string | null; refresh: number; onChanged: () => void }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const holdings = useLoad<BalanceOutput>(
    () => call(OPS.balance, { walletId: walletId ?? undefined, maxResults: 1000 }),
    [walletId, refresh],
  );
  const [open, setOpen] = useState<string | null>(null);
  const [action, setAction] = useState<{ kind: 'send' | 'redeem'; coin: LookupCoin } | null>(null);
  const tokens = (holdings.data?.coins ?? []).filter((c) => c.tokenId);
  // Send and Redeem here move template tokens; any other protocol a balance may list (BSV-21) moves from the Ordinals tab.
  return (
    <Stack>
      {holdings.error && <Alert color="red">{holdings.error}</Alert>}
      {holdings.loading && !holdings.data && <Loader size="sm" />}
      {holdings.data && tokens.length === 0 && (
        <Text c="dimmed">This wallet holds no tokens yet. Issue one, or receive one at the wallet's address or paymail.</Text>
      )}
      {tokens.length > 0 && (
        <ScrollTable fit striped highlightOnHover aria-label="Token holdings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Token</Table.Th>
              <Table.Th className={HIDE_NARROW}>Protocol</Table.Th>
              <Table.Th ta="right">Held</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((c) => (
              <Table.Tr key={c.tokenId}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {c.image && <Image src={c.image} alt="" w={28} h={28} radius="sm" fit="contain" fallbackSrc="" />}
                    <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                      <Text fw={600}>{c.symbol}</Text>
                      <Text size="xs" c="dimmed">
                        {c.name}
                      </Text>
                      {/* A narrow table has no protocol column: the badge goes here. */}
                      <WhenNarrow>
                        <Badge variant="light">{c.protocol}</Badge>
                      </WhenNarrow>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td className={HIDE_NARROW}>
                  <Badge variant="light">{c.protocol}</Badge>
                </Table.Td>
                <Table.Td ta="right" data-testid={`held-${c.symbol}`}>
                  {isNftProtocol(c.protocol)
                    ? `${c.amount} (#${(c.sn ?? []).join(', #')})`
                    : formatTokenAmount(c.amount ?? 0, c.decimals ?? 0)}
                </Table.Td>
                <Table.Td>
                  {/* The buttons wrap onto a second line in a narrow table, never off its edge. */}
                  <Group gap="xs" justify="flex-end">
                    <Button size="xs" variant="default" onClick={() => setOpen(c.tokenId!)}>
                      Details
                    </Button>
                    {canCall(role, OPS.send) && isTokenProtocol(c.protocol) && (
                      <Button size="xs" onClick={() => setAction({ kind: 'send', coin: c })}>
                        Send
                      </Button>
                    )}
                    {canCall(role, OPS.redeemToken) && isTokenProtocol(c.protocol) && (
                      <Button size="xs" color="orange" variant="light" onClick={() => setAction({ kind: 'redeem', coin: c })}>
                        Redeem
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {open && <TokenDetails tokenId={open} onClose={() => setOpen(null)} />}
      {action && (
        <MoveTokens
          kind={action.kind}
          coin={action.coin}
          walletId={walletId}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            onChanged();
            void holdings.reload();
          }}
        />
      )}
    </Stack>
  );
}
