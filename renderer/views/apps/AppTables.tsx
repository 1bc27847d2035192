import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import type { AppOutput } from '../../../shared/operations.js';
import { formatTime } from '../../components/format.js';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { defaultChoiceLabel, STATE_COLOR, STATE_LABEL, walletName, type WalletWords } from './app-words.js';

/** Who decided, and when: "ada@acme.io, 26/11/2026, 14:02:11". */
const decided = (a: AppOutput) => (a.decidedBy ? `${a.decidedBy}, ${formatTime(a.decidedAt)}` : formatTime(a.decidedAt));

/** "1 call", "1,204 calls". */
const callWords = (n: number) => `${n.toLocaleString('en-US')} call${n === 1 ? '' : 's'}`;

/** Allowed apps: the wallet that answers each, what it has done, and Revoke. */
export function AllowedApps(props: WalletWords & { apps: AppOutput[]; onRevoke: (app: AppOutput) => void }) {
  return (
    <ScrollTable fit aria-label="Allowed apps">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th>Wallet that answers it</Table.Th>
          <Table.Th className={HIDE_NARROW}>Calls</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>Last call</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>Allowed by</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.apps.map((a) => (
          <Table.Tr key={a.originator} data-testid="allowed-app">
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text ff="monospace" size="sm">
                {a.originator}
              </Text>
              {/* The columns a narrow table leaves out, said here. */}
              <WhenNarrow below="medium">
                <Text size="xs" c="dimmed">
                  <WhenNarrow>{callWords(a.calls)} · </WhenNarrow>
                  last call {a.lastCallAt ? formatTime(a.lastCallAt) : 'none yet'} · allowed by {decided(a)}
                </Text>
              </WhenNarrow>
            </Table.Td>
            <Table.Td data-testid="app-wallet">
              {a.walletId === null ? defaultChoiceLabel(props.defaultWalletId, props.wallets) : walletName(a.walletId, props.wallets)}
            </Table.Td>
            <Table.Td className={HIDE_NARROW} data-testid="app-calls">
              {a.calls.toLocaleString('en-US')}
            </Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{a.lastCallAt ? formatTime(a.lastCallAt) : 'none yet'}</Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{decided(a)}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="subtle" color="red" onClick={() => props.onRevoke(a)} aria-label={`Revoke ${a.originator}`}>
                Revoke
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

/** Denied and revoked apps: refused until allowed again. */
export function RefusedApps(props: { apps: AppOutput[]; onAllow: (app: AppOutput) => void }) {
  return (
    <ScrollTable fit aria-label="Denied and revoked apps">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>App</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th className={HIDE_MEDIUM}>By</Table.Th>
          <Table.Th className={HIDE_NARROW}>Calls</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.apps.map((a) => (
          <Table.Tr key={a.originator} data-testid="refused-app">
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text ff="monospace" size="sm">
                {a.originator}
              </Text>
              <WhenNarrow below="medium">
                <Text size="xs" c="dimmed">
                  by {decided(a)}
                  <WhenNarrow> · {callWords(a.calls)}</WhenNarrow>
                </Text>
              </WhenNarrow>
            </Table.Td>
            <Table.Td>
              <Badge color={STATE_COLOR[a.state]} variant="light" data-testid="app-state">
                {STATE_LABEL[a.state]}
              </Badge>
            </Table.Td>
            <Table.Td className={HIDE_MEDIUM}>{decided(a)}</Table.Td>
            <Table.Td className={HIDE_NARROW}>{a.calls.toLocaleString('en-US')}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => props.onAllow(a)} aria-label={`Allow ${a.originator} again`}>
                Allow again
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
