import { Alert, Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
import { useState } from 'react';
import { OPERATIONS as OPS, type UserOutput } from '../../shared/operations.js';
import { ROLE_LABELS, ROLES, type Role } from '../../shared/roles.js';
import { roleHelp } from '../../shared/role-help.js';
import { PASSWORD_RULE } from '../../shared/schemas.js';
import { ConfirmModal } from '../components/ConfirmModal.js';
import { PasswordResetModal } from './PasswordResetModal.js';
import { useSubmit } from '../components/useSubmit.js';
import { notifySuccess } from '../components/notify.js';
import { useLoad } from '../components/useLoad.js';
import { useSession } from '../state/store.js';

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
const ROLE_COLORS: Record<Role, string> = { admin: 'red', manager: 'blue', operator: 'grape', viewer: 'gray', api_user: 'teal' };

type Draft = { email: string; password: string; role: Role; firstName: string; lastName: string; title: string };
const EMPTY: Draft = { email: '', password: '', role: 'viewer', firstName: '', lastName: '', title: '' };

/** Admins manage the organisation's users: list, create, change role and details, reset a password or two-step sign-in, delete. */
export function UsersView() {
  const call = useSession((s) => s.call);
  const myUid = useSession((s) => s.me?.uid);
  const users = useLoad(() => call(OPS.listUsers, {}).then((o) => o.users));
  // Who has two-step sign-in on (uid → since when), for the list and the admin's reset.
  const twoStep = useLoad(() => call(OPS.listTwoStep, {}).then((o) => new Map(o.users.map((u) => [u.uid, u.enabledAt]))));
  const [resetting, setResetting] = useState<UserOutput | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserOutput | null>(null);
  const [deleting, setDeleting] = useState<UserOutput | null>(null);
  const [resettingPassword, setResettingPassword] = useState<UserOutput | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Users</Title>
        <Button onClick={() => setCreating(true)}>New user</Button>
      </Group>
      {users.error && <Alert color="red">{users.error}</Alert>}
      <ScrollTable fit striped highlightOnHover verticalSpacing="sm" aria-label="Users">
        <Table.Thead>
          <Table.Tr>
            <Table.Th className={HIDE_NARROW}>Name</Table.Th>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th className={HIDE_MEDIUM}>Title</Table.Th>
            <Table.Th className={HIDE_NARROW}>Two-step sign-in</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.data?.map((u) => (
            <Table.Tr key={u.uid} data-testid={`user-row-${u.email}`}>
              <Table.Td className={HIDE_NARROW}>{[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {u.email}
                {/* A narrow table's name and two-step columns, said under the e-mail. */}
                <WhenNarrow>
                  <Text size="xs" c="dimmed">
                    {[[u.firstName, u.lastName].filter(Boolean).join(' '), twoStep.data?.has(u.uid) ? 'two-step sign-in on' : '']
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </WhenNarrow>
              </Table.Td>
              <Table.Td>
                <Badge color={ROLE_COLORS[u.role]} variant="light">
                  {ROLE_LABELS[u.role]}
                </Badge>
              </Table.Td>
              <Table.Td className={HIDE_MEDIUM}>{u.title || '—'}</Table.Td>
              <Table.Td className={HIDE_NARROW}>
                {twoStep.data?.has(u.uid) ? (
                  <Badge color="teal" variant="light" title={`On since ${new Date(twoStep.data.get(u.uid)!).toLocaleString()}`}>
                    On
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed">
                    {twoStep.data ? 'Off' : '—'}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  <Button size="xs" variant="default" onClick={() => setEditing(u)}>
                    Edit
                  </Button>
                  {u.uid !== myUid && (
                    <Button size="xs" variant="default" onClick={() => setResettingPassword(u)}>
                      Reset password
                    </Button>
                  )}
                  {twoStep.data?.has(u.uid) && (
                    <Button size="xs" variant="default" onClick={() => setResetting(u)}>
                      Reset two-step sign-in
                    </Button>
                  )}
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => setDeleting(u)}
                    disabled={u.uid === myUid}
                    title={u.uid === myUid ? 'You cannot delete yourself here' : undefined}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>

      <UserForm
        opened={creating}
        title="New user"
        initial={EMPTY}
        withCredentials
        onClose={() => setCreating(false)}
        onSubmit={async (d) => {
          await call(OPS.createUser, d);
          notifySuccess(`${d.email} can now sign in as ${ROLE_LABELS[d.role]}.`);
          await users.reload();
        }}
      />
      {editing && (
        <UserForm
          opened
          title={`Edit ${editing.email}`}
          initial={{ ...EMPTY, ...editing }}
          onClose={() => setEditing(null)}
          onSubmit={async (d) => {
            await call(OPS.updateUser, { userId: editing.uid, role: d.role, firstName: d.firstName, lastName: d.lastName, title: d.title });
            notifySuccess(`${editing.email} updated.`);
            await users.reload();
          }}
        />
      )}
      {resettingPassword && <PasswordResetModal user={resettingPassword} onClose={() => setResettingPassword(null)} />}
      <ConfirmModal
        opened={resetting !== null}
        title="Reset two-step sign-in"
        confirmLabel="Reset two-step sign-in"
        onClose={() => setResetting(null)}
        onConfirm={async () => {
          await call(OPS.resetTwoStep, { userId: resetting!.uid });
          notifySuccess(`${resetting!.email} now signs in with the password alone, and may enrol again.`);
          await twoStep.reload();
        }}
      >
        {resetting?.email} no longer needs a code from their authenticator app to sign in (for a lost phone with no recovery codes left).
        Make sure it is really them asking. The reset is recorded in the audit log.
      </ConfirmModal>
      <ConfirmModal
        opened={deleting !== null}
        title="Delete user"
        confirmLabel="Delete user"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await call(OPS.deleteUser, { userId: deleting!.uid });
          notifySuccess(`${deleting!.email} no longer has access.`);
          await users.reload();
        }}
      >
        {deleting?.email} loses access at once: their sessions and API keys stop working. Their wallets and history stay with the
        organisation.
      </ConfirmModal>
    </Stack>
  );
}

function UserForm(props: {
  opened: boolean;
  title: string;
  initial: Draft;
  withCredentials?: boolean;
  onClose: () => void;
  onSubmit: (d: Draft) => Promise<void>;
}) {
  const [d, setD] = useState<Draft>(props.initial);
  const { busy, error, fieldErrors, onSubmit } = useSubmit(
    async () => {
      await props.onSubmit(d);
      setD(props.initial);
      props.onClose();
    },
    Object.keys(EMPTY),
    { title: 'Job title', password: 'Initial password' },
    d,
  );
  const text = (k: keyof Draft) => ({
    value: d[k],
    error: fieldErrors[k],
    onChange: (e: { currentTarget: { value: string } }) => setD({ ...d, [k]: e.currentTarget.value }),
  });

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {props.withCredentials && <TextInput label="E-mail" type="email" required {...text('email')} />}
          <Group grow>
            <TextInput label="First name" {...text('firstName')} />
            <TextInput label="Last name" {...text('lastName')} />
          </Group>
          <TextInput label="Job title" {...text('title')} />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={d.role}
            onChange={(v) => v && setD({ ...d, role: v as Role })}
            allowDeselect={false}
            required
            description={roleHelp(d.role)}
            error={fieldErrors.role}
          />
          {props.withCredentials && (
            <>
              <PasswordField
                label="Initial password"
                description={`${PASSWORD_RULE}. They can change it in their profile.`}
                required
                {...text('password')}
              />
            </>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            Roles: Admin manages users; Manager issues tokens and runs the fee manager; Operator, Viewer and Api User have narrower access.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
