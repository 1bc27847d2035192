import { Stack, Text } from '@mantine/core';
import type { HistoryEntry } from '../../../shared/operations.js';

type Move = HistoryEntry['tokens'][number];

/** A token move as words: "−5 KST", "+1 ART", "5 KST moved between own outputs"; "(being traced)" until proven. */
export function tokenMoveText(m: Move): string {
  const sign = m.direction === 'in' ? '+' : m.direction === 'out' ? '\u2212' : '';
  const self = m.direction === 'self' ? ' moved between own outputs' : '';
  return `${sign}${m.amount.toLocaleString('en-US')} ${m.symbol}${self}${m.proven ? '' : ' (being traced to its issue)'}`;
}

/** The tokens a history row moved, one line each, above its BSV amount (which is then the fee it cost). */
export function TokenMoves({ e }: { e: HistoryEntry }) {
  if (!e.tokens?.length) return null;
  return (
    <Stack gap={0} data-testid={`tokens-${e.txid.slice(0, 8)}`}>
      {e.tokens.map((m) => (
        <Text
          key={m.id}
          fw={600}
          size="sm"
          c={m.direction === 'in' ? 'teal' : m.direction === 'out' ? 'red' : undefined}
          title={`token ${m.id}`}
        >
          {tokenMoveText(m)}
        </Text>
      ))}
    </Stack>
  );
}
