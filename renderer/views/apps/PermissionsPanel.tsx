import { Alert, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type AppPermissionOutput, type AppSpendingOutput } from '../../../shared/operations.js';
import { ConfirmModal } from '../../components/ConfirmModal.js';
import { notifySuccess } from '../../components/notify.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { GrantAhead, SpendingLimitModal } from './PermissionForms.js';
import { PermissionRequest } from './PermissionRequests.js';
import { PermissionTable, SpendingTable } from './PermissionTables.js';

/**
 * What each allowed app may do with its wallet: the uses waiting for a decision (their calls wait), the
 * grants and denials, and each app's monthly spending authorisation. Reloads on the apps live event, which
 * is also sent when an app asks for a permission.
 */
export function PermissionsPanel() {
  const call = useSession((s) => s.call);
  const list = useLoad(() => call(OPS.listAppPermissions, {}), []);
  useLiveReload(['apps'], () => void list.reload());
  const [revoking, setRevoking] = useState<AppPermissionOutput | null>(null);
  const [editing, setEditing] = useState<AppSpendingOutput | null>(null);

  const permissions = list.data?.permissions ?? [];
  const pending = permissions.filter((p) => p.state === 'pending');
  const decided = permissions.filter((p) => p.state !== 'pending');

  return (
    <Stack gap="sm" component="section" aria-labelledby="app-permissions">
      <Group gap="xs">
        <Title order={3} id="app-permissions">
          Permissions
        </Title>
        {pending.length > 0 && (
          <Badge color="yellow" circle data-testid="permission-requests-count" aria-label={`${pending.length} permission requests waiting`}>
            {pending.length}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" maw={760}>
        Allowed apps still need a grant for each protocol (security levels 1 and 2; level 2 per counterparty), basket, certificate type and
        token or ordinal they use, and spend satoshis within a monthly authorisation. A use nobody granted waits here.
      </Text>
      {list.error && (
        <Alert color="red" role="alert">
          {list.error}
        </Alert>
      )}
      {pending.map((p) => (
        <PermissionRequest key={p.id} request={p} onDecided={list.reload} />
      ))}
      {decided.length > 0 ? (
        <PermissionTable permissions={decided} onRevoke={setRevoking} />
      ) : (
        list.data && <Text c="dimmed">No permission is granted or denied yet.</Text>
      )}
      {list.data && list.data.spending.length > 0 && (
        <Stack gap="xs">
          <Title order={4}>Monthly spending</Title>
          <SpendingTable spending={list.data.spending} onEdit={setEditing} />
        </Stack>
      )}
      <GrantAhead onSaved={list.reload} />

      {editing && <SpendingLimitModal spending={editing} onClose={() => setEditing(null)} onSaved={list.reload} />}
      <ConfirmModal
        opened={revoking !== null}
        title={`Revoke ${revoking?.summary ?? 'this permission'}?`}
        confirmLabel="Revoke permission"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await call(OPS.revokeAppPermission, { id: revoking.id });
          notifySuccess(`${revoking.originator}: ${revoking.summary} revoked.`);
          await list.reload();
        }}
      >
        The app is asked again the next time it uses it, and its call waits for a decision.
      </ConfirmModal>
    </Stack>
  );
}
