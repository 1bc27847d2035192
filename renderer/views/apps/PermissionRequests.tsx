import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { OPERATIONS as OPS, type AppPermissionOutput } from '../../../shared/operations.js';
import { formatSats, formatTime } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';

export const KIND_LABEL: Record<AppPermissionOutput['kind'], string> = {
  protocol: 'Protocol',
  basket: 'Basket',
  certificate: 'Certificate',
  asset: 'Asset',
  spend: 'Spend',
};

/** A local date-time input's value as the ISO time decideAppPermission takes (empty: no expiry). */
export const expiryOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * One use an app asked for that nobody granted yet: its call waits while this is open. Granting a spend lets
 * that one action through; granting anything else lasts until revoked (or the expiry given).
 */
export function PermissionRequest(props: { request: AppPermissionOutput; onDecided: () => Promise<void> }) {
  const { request } = props;
  const call = useSession((s) => s.call);
  const headingId = useId();
  const [until, setUntil] = useState('');
  const decide = (grant: boolean) => async () => {
    await call(OPS.decideAppPermission, { id: request.id, grant, expiresAt: grant ? expiryOf(until) : undefined });
    notifySuccess(grant ? `${request.originator} is granted ${request.summary}.` : `${request.originator} is denied ${request.summary}.`);
    await props.onDecided();
  };
  const granting = useSubmit(decide(true), ['expiresAt']);
  const denying = useSubmit(decide(false));
  const busy = granting.busy || denying.busy;
  const error = granting.error ?? denying.error;

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="md"
      style={{ borderColor: 'var(--mantine-color-yellow-6)', borderWidth: 2 }}
      data-testid="permission-request"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={4} id={headingId} style={{ wordBreak: 'break-all' }}>
            <Text span ff="monospace" inherit>
              {request.originator}
            </Text>{' '}
            asks for {request.summary}
          </Title>
          <Badge color="yellow" variant="light">
            {KIND_LABEL[request.kind]}
          </Badge>
        </Group>
        {request.kind === 'spend' && request.satoshis !== null && (
          <Text size="sm" data-testid="permission-amount">
            Amount: {formatSats(request.satoshis)} — for this one action only.
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {request.purpose ? `${request.purpose} · ` : ''}asked {formatTime(request.requestedAt)}. Its call waits until you decide.
        </Text>
        <Group align="flex-end">
          {request.kind !== 'spend' && (
            <TextInput
              type="datetime-local"
              label="Grant until (optional)"
              value={until}
              onChange={(e) => setUntil(e.currentTarget.value)}
              error={granting.fieldErrors.expiresAt}
            />
          )}
          <Group gap="xs">
            <Button loading={granting.busy} disabled={busy && !granting.busy} onClick={() => void granting.run()}>
              Grant
            </Button>
            <Button color="red" variant="light" loading={denying.busy} disabled={busy && !denying.busy} onClick={() => void denying.run()}>
              Deny
            </Button>
          </Group>
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
