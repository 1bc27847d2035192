import { Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ROLE_LABELS } from '../../shared/roles.js';
import { CopyField } from '../components/CopyField.js';
import { useSession } from '../state/store.js';

function Fact({ label, value, copy }: { label: string; value: ReactNode; copy?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {copy ? <CopyField label={label} value={copy} /> : <Text size="sm">{value}</Text>}
    </Group>
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
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{`curl -s ${apiUrl ?? 'http://127.0.0.1:7480'}/api/v1/login \\
  -H 'content-type: application/json' \\
  -d '{"email":"${me.email}","password":"…"}'
# then: -H "authToken: <token>" -H "serviceid: ${me.serviceId}"`}</Code>
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
