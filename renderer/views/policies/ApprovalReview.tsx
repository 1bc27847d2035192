import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBsv, formatTime } from '../../components/format.js';
import { reviewAmount, type Approval } from './approval-words.js';

/** Exactly what the approvers are asked about: the move as the policy saw it, who asked, which rule, the votes. */
export function ApprovalReview({ a }: { a: Approval }) {
  const r = a.review;
  const row = (label: string, value: ReactNode, testId?: string) => (
    <Table.Tr>
      <Table.Th w={150}>{label}</Table.Th>
      <Table.Td data-testid={testId}>{value}</Table.Td>
    </Table.Tr>
  );
  return (
    <Table variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {row(
          'Wallet',
          <>
            <Text span fw={500}>
              {r.walletTitle}
            </Text>{' '}
            <Text span size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              ({r.walletID})
            </Text>
          </>,
          'approval-review-wallet',
        )}
        {row('Amount', <Text fw={600}>{reviewAmount(r)}</Text>, 'approval-amount')}
        {row(
          'Outputs',
          r.outputs.map((o, i) => (
            <Text key={i} size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {o.address ?? `script ${o.script.slice(0, 40)}…`} · {formatBsv(o.satoshis)} BSV
            </Text>
          )),
        )}
        {r.counterparty && row('To', r.counterparty)}
        {r.memo && row('Memo', r.memo)}
        {row('Asked by', `${a.initiator.email ?? a.initiator.uid}${a.initiator.apiKeyId ? ` (API key ${a.initiator.apiKeyId})` : ''}`)}
        {row('Rule', a.words, 'approval-rule')}
        {row(
          'Votes',
          a.votes.length
            ? a.votes.map((v) => (
                <Text key={v.uid} size="sm">
                  {v.vote === 'approve' ? '✓ approved' : '✕ rejected'} by {v.email ?? v.uid}, {formatTime(v.at)}
                </Text>
              ))
            : `None yet (${a.needed} needed)`,
          'approval-votes',
        )}
        {row('Expires', formatTime(a.expiresAt))}
        {a.txid && row('txid', <Text ff="monospace">{a.txid}</Text>, 'approval-txid')}
        {a.error && row('Why', a.error, 'approval-error')}
      </Table.Tbody>
    </Table>
  );
}
