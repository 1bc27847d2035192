import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { OutputOf } from '../../../shared/operation.js';
import { canCall, OPERATIONS as OPS } from '../../../shared/operations.js';
import { CopyAction } from '../../components/CopyField.js';
import { formatTime } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { HIDE_MEDIUM, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { useLoad } from '../../components/useLoad.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { offeredWords, wantedWords } from './swap-words.js';

type OfferRecord = OutputOf<typeof OPS.listOffers>['offers'][number];
const STATUS_COLOR = { open: 'blue', taken: 'teal', withdrawn: 'gray' } as const;

/** The wallet's offers, newest first, with their status; an open one can be withdrawn (its tokens come back). */
export function MyOffers({ walletId, refresh, onChanged }: { walletId: string | null; refresh: number; onChanged: () => void }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const offers = useLoad(() => call(OPS.listOffers, { walletId: walletId ?? undefined }), [walletId, refresh]);
  const [withdrawing, setWithdrawing] = useState<OfferRecord | null>(null);
  const withdraw = useSubmit(async () => {
    if (!withdrawing) return;
    await call(OPS.withdrawOffer, { walletId: walletId ?? undefined, offerId: withdrawing.offerId });
    notifySuccess('Offer withdrawn');
    setWithdrawing(null);
    onChanged();
    await offers.reload();
  });
  const list = offers.data?.offers ?? [];
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        My offers
      </Title>
      {offers.error && (
        <Alert color="red" role="alert">
          {offers.error}
        </Alert>
      )}
      {offers.loading && !offers.data && <Loader size="sm" />}
      {offers.data && list.length === 0 && <Text c="dimmed">This wallet has made no offers.</Text>}
      {list.length > 0 && (
        <ScrollTable fit striped aria-label="My offers" data-testid="my-offers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Offers</Table.Th>
              <Table.Th>Wants</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Made</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((o) => (
              <Table.Tr key={o.offerId} data-testid={`offer-${o.offerId}`}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {offeredWords(o.offered)}
                  {/* A narrow table has no Made column: when, here. */}
                  <WhenNarrow below="medium">
                    <Text size="xs" c="dimmed">
                      made {formatTime(o.createdAt)}
                    </Text>
                  </WhenNarrow>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{wantedWords(o.wanted)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[o.status]} variant="light">
                    {o.status}
                  </Badge>
                </Table.Td>
                <Table.Td className={HIDE_MEDIUM}>
                  <Text size="sm">{formatTime(o.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    {o.status === 'open' && o.swapHex && <CopyAction label="offer hex" value={o.swapHex} />}
                    {/* A kept offer is taken by its id, from another wallet of the organisation (Take an offer). */}
                    {o.status === 'open' && o.kept && <CopyAction label="offer id" value={o.offerId} />}
                    {o.status === 'open' && canCall(role, OPS.withdrawOffer) && (
                      <Button size="xs" color="orange" variant="light" onClick={() => setWithdrawing(o)}>
                        Withdraw
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {withdrawing && (
        <Modal opened onClose={() => setWithdrawing(null)} title="Withdraw this offer?" centered>
          <Stack gap="sm">
            <Text size="sm">
              {offeredWords(withdrawing.offered)} go back to this wallet in a transaction of its own, so the offer for{' '}
              {wantedWords(withdrawing.wanted)} can never be taken. This wallet pays that transaction's network fee.
            </Text>
            {withdraw.error && (
              <Alert color="red" role="alert">
                {withdraw.error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setWithdrawing(null)}>
                Cancel
              </Button>
              <Button color="orange" loading={withdraw.busy} onClick={() => void withdraw.run()}>
                Withdraw offer
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Paper>
  );
}
