import { Alert, Badge, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { Amount } from '../components/Amount.js';
import { CopyField } from '../components/CopyField.js';
import { formatSats, formatTime } from '../components/format.js';
import { useLoad } from '../components/useLoad.js';
import { useSession } from '../state/store.js';
import { STATE_COLORS } from './history-words.js';

/** One transaction of a wallet: its state, amounts and fee, and every input and output. */
export function TransactionDetail({ walletId, txid, onClose }: { walletId: string | null; txid: string; onClose: () => void }) {
  const call = useSession((s) => s.call);
  const detail = useLoad(() => call(OPS.transactionDetail, { walletId: walletId ?? undefined, txid }), [walletId, txid]);
  const d = detail.data;
  return (
    <Modal opened onClose={onClose} title="Transaction" size="xl" centered>
      {detail.error && (
        <Alert color="red" role="alert">
          {detail.error}
        </Alert>
      )}
      {!d && !detail.error && <Loader aria-label="Loading the transaction" />}
      {d && (
        <Stack gap="sm" data-testid="transaction-detail">
          <CopyField label="txid" value={d.txid} />
          <Group gap="xl">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                State
              </Text>
              <Badge color={STATE_COLORS[d.state]}>{d.state}</Badge>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                This wallet
              </Text>
              <Amount satoshis={d.amount} signed inline />
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Fee
              </Text>
              <Text size="sm">
                {d.fee === null ? '—' : `${formatSats(d.fee)}${d.feePaidBy === 'feeManager' ? ', paid by the fee manager' : ''}`}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Confirmations
              </Text>
              <Text size="sm">{d.state === 'confirmed' ? `${d.confirmations} (block ${d.height})` : '0'}</Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                When
              </Text>
              <Text size="sm">{formatTime(d.time)}</Text>
            </Stack>
            {d.size !== null && (
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  Size
                </Text>
                <Text size="sm">{d.size.toLocaleString('en-US')} bytes</Text>
              </Stack>
            )}
          </Group>
          {d.memo && <Text size="sm">Memo: {d.memo}</Text>}
          {d.failureReason && (
            <Alert color="red" title="Failed">
              {d.failureReason}
            </Alert>
          )}
          {d.unavailable && <Alert color="yellow">{d.unavailable}</Alert>}
          {d.inputs && (
            <>
              <Title order={5}>Inputs</Title>
              <ScrollTable fit aria-label="Inputs" verticalSpacing={4}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Spends</Table.Th>
                    <Table.Th>From</Table.Th>
                    <Table.Th ta="right">Amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.inputs.map((i) => (
                    <Table.Tr key={`${i.txid}:${i.vout}`}>
                      <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {i.txid.slice(0, 16)}…:{i.vout}
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        {i.address ?? '—'} {i.mine && <Badge color="teal">this wallet</Badge>}
                      </Table.Td>
                      <Table.Td ta="right">{i.satoshis === null ? 'unknown' : formatSats(i.satoshis)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </ScrollTable>
            </>
          )}
          {d.outputs && (
            <>
              <Title order={5}>Outputs</Title>
              <ScrollTable fit aria-label="Outputs" verticalSpacing={4}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>To</Table.Th>
                    <Table.Th ta="right">Amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.outputs.map((o) => (
                    <Table.Tr key={o.vout}>
                      <Table.Td>{o.vout}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        {o.address ?? (o.kind === 'data' ? 'data (OP_RETURN)' : 'script')}{' '}
                        {o.kind === 'token' && <Badge color="grape">token</Badge>}{' '}
                        {o.mine && <Badge color="teal">{o.change ? 'change' : 'this wallet'}</Badge>}
                      </Table.Td>
                      <Table.Td ta="right">{formatSats(o.satoshis ?? 0)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </ScrollTable>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
