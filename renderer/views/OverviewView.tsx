import { Anchor, Badge, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FEE_MANAGER_LOW_BALANCE } from '../../shared/contracts/fees.js';
import { canCall, OPERATIONS as OPS } from '../../shared/operations.js';
import { Amount } from '../components/Amount.js';
import { formatTime } from '../components/format.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useWallets } from '../components/useWallets.js';
import { DIRECTION_WORDS, STATE_COLORS } from './history-words.js';
import type { ReactNode } from 'react';
import { ROLE_LABELS } from '../../shared/roles.js';
import { CopyField } from '../components/CopyField.js';
import { useSession } from '../state/store.js';
import { GettingStarted } from './GettingStarted.js';

function Fact({ label, value, copy }: { label: string; value: ReactNode; copy?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {copy ? <CopyField label={label} value={copy} /> : typeof value === 'string' ? <Text size="sm">{value}</Text> : value}
    </Group>
  );
}

/** Where the money is: the organisation's total and the fee manager (for the roles that run them), your wallets, recent activity. */
function Money() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const wallets = useWallets();
  const treasury = canCall(role, OPS.organisationBalance);
  const org = useLoad(() => (treasury ? call(OPS.organisationBalance, {}) : Promise.resolve(null)), [treasury]);
  const recent = useLoad(async () => {
    const list = wallets.data ?? [];
    const pages = await Promise.all(
      list.map(async (w) =>
        (await call(OPS.history, { walletId: w.walletID, maxResults: 5 })).history.map((e) => ({
          ...e,
          wallet: w.walletTitle,
          walletID: w.walletID,
        })),
      ),
    );
    return pages
      .flat()
      .sort((a, b) => Date.parse(b.time) - Date.parse(a.time))
      .slice(0, 8);
  }, [wallets.data]);
  useLiveReload(['wallets', 'fees'], org.reload);
  useLiveReload(['history'], recent.reload);
  const yours = (wallets.data ?? []).reduce((s, w) => s + w.balance.confirmed + w.balance.unconfirmed, 0);
  const o = org.data;
  return (
    <>
      {wallets.data && <GettingStarted wallets={wallets.data} />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>Balance</Title>
            {o && (
              <Fact
                label={`Organisation (${o.wallets} wallet${o.wallets === 1 ? '' : 's'})`}
                value={<Amount satoshis={o.confirmed + o.unconfirmed} testId="org-balance" inline />}
              />
            )}
            <Fact label="Your wallets" value={<Amount satoshis={yours} testId="your-balance" inline />} />
            {(wallets.data ?? []).map((w) => (
              <Fact
                key={w.walletID}
                label={`· ${w.walletTitle}`}
                value={<Amount satoshis={w.balance.confirmed + w.balance.unconfirmed} inline />}
              />
            ))}
            {o && (
              <Fact
                label="Fee manager"
                value={
                  o.feeManager === null ? (
                    <Text size="sm" c="dimmed">
                      not set up: payments pay their own fees
                    </Text>
                  ) : (
                    <Group gap={6} wrap="nowrap">
                      <Amount satoshis={o.feeManager} inline />
                      {o.feeManager < FEE_MANAGER_LOW_BALANCE ? (
                        <Badge color="orange">low: fund it</Badge>
                      ) : (
                        <Badge color="teal">paying fees</Badge>
                      )}
                    </Group>
                  )
                }
              />
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>Recent activity</Title>
            {recent.data?.length === 0 && (
              <Text size="sm" c="dimmed">
                No transactions yet.
              </Text>
            )}
            {recent.data?.map((e) => (
              <Group key={`${e.walletID}:${e.txid}`} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0}>
                  <Text size="sm">
                    {DIRECTION_WORDS[e.direction]} · {e.wallet}
                    {e.memo ? ` · ${e.memo}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatTime(e.time)} ·{' '}
                    <Badge color={STATE_COLORS[e.state]} size="xs">
                      {e.state}
                    </Badge>
                  </Text>
                </Stack>
                <Amount satoshis={e.amount} signed inline />
              </Group>
            ))}
            <Anchor href="#/history" size="sm">
              All history
            </Anchor>
          </Stack>
        </Paper>
      </SimpleGrid>
    </>
  );
}

/** Who is signed in, which organisation, and how local scripts reach this Keystead's API. */
export function OverviewView() {
  const me = useSession((s) => s.me)!;
  const version = useSession((s) => s.version);
  const network = useSession((s) => s.network);
  const apiUrl = useSession((s) => s.apiUrl);
  const name = [me.firstName, me.lastName].filter(Boolean).join(' ');

  return (
    <Stack>
      <Title order={2}>Overview</Title>
      <Money />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>Organisation</Title>
            <Fact label="Name" value={me.organisation} />
            <Fact label="Service ID" value={me.serviceId} copy={me.serviceId} />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>You</Title>
            {name && <Fact label="Name" value={name} />}
            <Fact label="E-mail" value={me.email} />
            <Fact label="Role" value={ROLE_LABELS[me.role]} />
            <Fact label="User ID" value={me.uid} copy={me.uid} />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>This Keystead</Title>
            <Fact label="Version" value={version} />
            <Fact label="Network" value={network} />
            {apiUrl && <Fact label="Local API" value={apiUrl} copy={apiUrl} />}
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>Calling the API from a script</Title>
            <Text size="sm">Log in once, then send the token and your service ID with each call:</Text>
            <Code
              block
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >{`curl -s ${apiUrl ?? 'http://127.0.0.1:7480'}/api/v1/login \\
  -H 'content-type: application/json' \\
  -d '{"email":"${me.email}","password":"…"}'
# then: -H "authToken: <token>" -H "serviceid: ${me.serviceId}"`}</Code>
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
