import { Badge, Button, Table, VisuallyHidden } from '@mantine/core';
import type { AppPermissionOutput, AppSpendingOutput } from '../../../shared/operations.js';
import { formatSats, formatTime } from '../../components/format.js';
import { ScrollTable } from '../../components/ScrollTable.js';
import { KIND_LABEL } from './PermissionRequests.js';

const STATE_COLOR: Record<AppPermissionOutput['state'], string> = { pending: 'yellow', granted: 'teal', denied: 'red', used: 'gray' };

/** Grants and denials, each with who decided and Revoke (the app is asked again on its next use). */
export function PermissionTable(props: { permissions: AppPermissionOutput[]; onRevoke: (p: AppPermissionOutput) => void }) {
  return (
    <ScrollTable aria-label="App permissions" minWidth={760}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Decided by</Table.Th>
          <Table.Th>Until</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.permissions.map((p) => (
          <Table.Tr key={p.id} data-testid="app-permission">
            <Table.Td ff="monospace" style={{ overflowWrap: 'break-word' }}>
              {p.originator}
            </Table.Td>
            <Table.Td>{KIND_LABEL[p.kind]}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.summary}</Table.Td>
            <Table.Td>
              <Badge color={STATE_COLOR[p.state]} variant="light" data-testid="permission-state">
                {p.state}
              </Badge>
            </Table.Td>
            <Table.Td>{p.decidedBy ? `${p.decidedBy}, ${formatTime(p.decidedAt)}` : '—'}</Table.Td>
            <Table.Td>{p.expiresAt ? formatTime(p.expiresAt) : '—'}</Table.Td>
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
    <ScrollTable aria-label="Spending authorisations" minWidth={640}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th>A month</Table.Th>
          <Table.Th>Used this month</Table.Th>
          <Table.Th>Left</Table.Th>
          <Table.Th>Spent in all</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.spending.map((s) => (
          <Table.Tr key={s.originator} data-testid="app-spending">
            <Table.Td ff="monospace" style={{ overflowWrap: 'break-word' }}>
              {s.originator}
            </Table.Td>
            <Table.Td data-testid="spending-limit">{limitWords(s)}</Table.Td>
            <Table.Td>{formatSats(s.usedSatoshis)}</Table.Td>
            <Table.Td>{s.remainingSatoshis === null ? '—' : formatSats(s.remainingSatoshis)}</Table.Td>
            <Table.Td>{formatSats(s.spentSatoshis)}</Table.Td>
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
