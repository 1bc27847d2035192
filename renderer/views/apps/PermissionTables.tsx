import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import type { AppPermissionOutput, AppSpendingOutput } from '../../../shared/operations.js';
import { formatSats, formatTime } from '../../components/format.js';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { KIND_LABEL } from './PermissionRequests.js';

const STATE_COLOR: Record<AppPermissionOutput['state'], string> = { pending: 'yellow', granted: 'teal', denied: 'red', used: 'gray' };

/** Grants and denials, each with who decided and Revoke (the app is asked again on its next use). */
export function PermissionTable(props: { permissions: AppPermissionOutput[]; onRevoke: (p: AppPermissionOutput) => void }) {
  return (
    <ScrollTable fit aria-label="App permissions">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th className={HIDE_NARROW}>Kind</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>Decided by</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>Until</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.permissions.map((p) => (
          <Table.Tr key={p.id} data-testid="app-permission">
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text ff="monospace" size="sm">
                {p.originator}
              </Text>
              {/* The columns a narrow table leaves out, said here. */}
              <WhenNarrow below="medium">
                <Text size="xs" c="dimmed">
                  {p.decidedBy ? `${p.decidedBy}, ${formatTime(p.decidedAt)}` : 'not decided'}
                  {p.expiresAt ? ` · until ${formatTime(p.expiresAt)}` : ''}
                </Text>
              </WhenNarrow>
            </Table.Td>
            <Table.Td className={HIDE_NARROW}>{KIND_LABEL[p.kind]}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <WhenNarrow>
                <Text size="xs" c="dimmed">
                  {KIND_LABEL[p.kind]}
                </Text>
              </WhenNarrow>
              {p.summary}
            </Table.Td>
            <Table.Td>
              <Badge color={STATE_COLOR[p.state]} variant="light" data-testid="permission-state">
                {p.state}
              </Badge>
            </Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{p.decidedBy ? `${p.decidedBy}, ${formatTime(p.decidedAt)}` : '—'}</Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{p.expiresAt ? formatTime(p.expiresAt) : '—'}</Table.Td>
            <Table.Td>
              {p.state !== 'used' && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => props.onRevoke(p)}
                  aria-label={`Revoke ${p.summary} of ${p.originator}`}
                >
                  Revoke
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

/** The monthly authorisation in words: "50,000 sat" or "25.00 USD (≈ 1,234 sat)". */
export function limitWords(s: AppSpendingOutput): string {
  if (!s.limit) return 'none (each spend is asked for)';
  if ('satoshis' in s.limit) return formatSats(s.limit.satoshis);
  return `${s.limit.amount} ${s.limit.currency} (${s.limitSatoshis === null ? 'no rate now' : `≈ ${formatSats(s.limitSatoshis)}`})`;
}

/** Each app's monthly spending authorisation and what it used this month. */
export function SpendingTable(props: { spending: AppSpendingOutput[]; onEdit: (s: AppSpendingOutput) => void }) {
  return (
    <ScrollTable fit aria-label="Spending authorisations">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th>A month</Table.Th>
          <Table.Th className={HIDE_NARROW}>Used this month</Table.Th>
          <Table.Th>Left</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>Spent in all</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.spending.map((s) => (
          <Table.Tr key={s.originator} data-testid="app-spending">
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text ff="monospace" size="sm">
                {s.originator}
              </Text>
              <WhenNarrow below="medium">
                <Text size="xs" c="dimmed">
                  <WhenNarrow>{formatSats(s.usedSatoshis)} used this month · </WhenNarrow>
                  {formatSats(s.spentSatoshis)} spent in all
                </Text>
              </WhenNarrow>
            </Table.Td>
            <Table.Td data-testid="spending-limit">{limitWords(s)}</Table.Td>
            <Table.Td className={HIDE_NARROW}>{formatSats(s.usedSatoshis)}</Table.Td>
            {/* With no authorisation there is nothing to run down: it says so, not "0 sat". */}
            <Table.Td data-testid="spending-left">
              {!s.limit ? 'No limit set' : s.remainingSatoshis === null ? '—' : formatSats(s.remainingSatoshis)}
            </Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{formatSats(s.spentSatoshis)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                onClick={() => props.onEdit(s)}
                aria-label={`Set the spending authorisation of ${s.originator}`}
              >
                Set
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
