import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { MAX_COOLING_OFF_HOURS, type PayeeKindName } from '../../shared/contracts/payees.js';
import { canCall, OPERATIONS as OPS, type PayeeOutput } from '../../shared/operations.js';
import { ConfirmModal } from '../components/ConfirmModal.js';
import { FormFooter } from '../components/FormFooter.js';
import { formatTime } from '../components/format.js';
import { HIDE_MEDIUM, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

export const PAYEE_KIND_LABELS: Record<PayeeKindName, string> = { paymail: 'Paymail', address: 'Address', identity_key: 'Identity key' };

const KIND_OPTIONS = [
  { value: '', label: 'Tell from the destination' },
  ...Object.entries(PAYEE_KIND_LABELS).map(([value, label]) => ({ value, label })),
];

const hours = (n: number) => `${n} hour${n === 1 ? '' : 's'}`;

/** "usable now", or when its cooling-off ends. */
function Usable({ payee }: { payee: PayeeOutput }) {
  if (payee.state === 'removed') return <Badge color="gray">removed</Badge>;
  return payee.usable ? (
    <Badge color="teal" variant="light">
      usable now
    </Badge>
  ) : (
    // A long date wraps inside the badge in a narrow table instead of pushing it wider.
    <Badge
      color="yellow"
      variant="light"
      title="Until then, paying it needs a rule's approvers"
      h="auto"
      styles={{ label: { whiteSpace: 'normal' } }}
    >
      usable from {formatTime(payee.usableFrom)}
    </Badge>
  );
}

interface Draft {
  name: string;
  kind: string;
  destination: string;
  note: string;
}
const EMPTY: Draft = { name: '', kind: '', destination: '', note: '' };

/** Add or edit one payee; the API's field messages show under their fields. */
function PayeeForm(props: { editing: PayeeOutput | null; coolingOffHours: number; onClose: () => void; onSaved: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const { editing } = props;
  const [d, setD] = useState<Draft>(
    editing ? { name: editing.name, kind: editing.kind, destination: editing.destination, note: editing.note ?? '' } : EMPTY,
  );
  const save = useSubmit(async () => {
    const kind = (d.kind || undefined) as PayeeKindName | undefined;
    if (editing) {
      await call(OPS.updatePayee, { id: editing.payeeId, name: d.name, kind, destination: d.destination, note: d.note });
    } else {
      await call(OPS.addPayee, { name: d.name, kind, destination: d.destination, note: d.note || undefined });
    }
    await props.onSaved();
    props.onClose();
  }, Object.keys(EMPTY));
  const text = (k: keyof Draft) => ({
    value: d[k],
    error: save.fieldErrors[k],
    onChange: (e: { currentTarget: { value: string } }) => setD({ ...d, [k]: e.currentTarget.value }),
  });
  const destinationChanged = editing !== null && d.destination.trim().toLowerCase() !== editing.destination.toLowerCase();

  return (
    <Modal opened onClose={props.onClose} title={editing ? `Edit ${editing.name}` : 'Add a payee'} centered>
      <form onSubmit={save.onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required maxLength={100} data-autofocus {...text('name')} />
          <TextInput
            label="Destination"
            description="A paymail (alias@domain), a P2PKH address, or an identity key (66 hex digits)"
            required
            ff="monospace"
            {...text('destination')}
          />
          <Select
            label="Kind"
            data={KIND_OPTIONS}
            value={d.kind}
            onChange={(v) => setD({ ...d, kind: v ?? '' })}
            allowDeselect={false}
            error={save.fieldErrors.kind}
          />
          <TextInput label="Note" maxLength={500} {...text('note')} />
          {(!editing || destinationChanged) && (
            <Text size="sm" c="dimmed">
              {editing ? 'A new destination' : 'A new payee'} can be paid without a rule's approvers after the cooling-off period (
              {hours(props.coolingOffHours)}).
            </Text>
          )}
          <FormFooter error={save.error} onCancel={props.onClose} submitLabel={editing ? 'Save' : 'Add payee'} busy={save.busy} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The admin's cooling-off period; applies to payees added or changed from then on. */
function CoolingOff({ current, onSaved }: { current: number; onSaved: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const [value, setValue] = useState<number | string>(current);
  const save = useSubmit(async () => {
    await call(OPS.setPayeeSettings, { coolingOffHours: typeof value === 'number' ? value : Number(value) });
    await onSaved();
  }, ['coolingOffHours']);
  return (
    <Paper withBorder p="md" maw={760}>
      <form onSubmit={save.onSubmit}>
        <Group align="flex-end">
          <NumberInput
            hideControls
            label="Cooling-off period (hours)"
            description={`0 to ${MAX_COOLING_OFF_HOURS}; for payees added or changed from now on (the ones in the book keep their time)`}
            value={value}
            onChange={setValue}
            min={0}
            max={MAX_COOLING_OFF_HOURS}
            allowDecimal={false}
            error={save.fieldErrors.coolingOffHours}
            style={{ flex: '1 1 240px', maxWidth: 420 }}
          />
          <Button type="submit" variant="default" loading={save.busy}>
            Save period
          </Button>
        </Group>
        {save.error && (
          <Alert color="red" role="alert" mt="sm">
            {save.error}
          </Alert>
        )}
      </form>
    </Paper>
  );
}

/** The organisation's named destinations: who may be paid, and from when without a rule's approvers. */
export function PayeesView() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me?.role ?? null);
  const mayManage = canCall(role, OPS.addPayee);
  const maySetPeriod = canCall(role, OPS.setPayeeSettings);
  const [showRemoved, setShowRemoved] = useState(false);
  const [form, setForm] = useState<{ editing: PayeeOutput | null } | null>(null);
  const [removing, setRemoving] = useState<PayeeOutput | null>(null);

  const list = useLoad(() => call(OPS.listPayees, { includeRemoved: showRemoved }), [showRemoved]);
  useLiveReload(['payees'], () => void list.reload());
  const period = list.data?.coolingOffHours;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Payee book</Title>
        {mayManage && <Button onClick={() => setForm({ editing: null })}>Add payee</Button>}
      </Group>
      <Text c="dimmed" maw={760}>
        Named paymails, addresses and identity keys the organisation pays. A new payee, or one whose destination changed, can be paid
        without a rule's approvers only after the cooling-off period{period === undefined ? '' : ` (${hours(period)})`}. Rules can name
        payees, or any destination not in the book.
      </Text>

      {maySetPeriod && period !== undefined && <CoolingOff key={period} current={period} onSaved={list.reload} />}

      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={4}>Payees</Title>
          <Switch label="Show removed" checked={showRemoved} onChange={(e) => setShowRemoved(e.currentTarget.checked)} />
        </Group>
        {list.error && <Alert color="red">{list.error}</Alert>}
        {list.data && list.data.payees.length === 0 && <Text c="dimmed">No payees yet.</Text>}
        {list.data && list.data.payees.length > 0 && (
          <ScrollTable fit aria-label="Payees">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th className={HIDE_MEDIUM}>Kind</Table.Th>
                <Table.Th>Destination</Table.Th>
                <Table.Th>Usable</Table.Th>
                <Table.Th className={HIDE_MEDIUM}>Note</Table.Th>
                {mayManage && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.payees.map((p) => (
                <Table.Tr key={p.payeeId} data-testid="payee-row">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {p.name}
                    {/* The columns a narrow table leaves out, said here. */}
                    <WhenNarrow below="medium">
                      <Text size="xs" c="dimmed">
                        {PAYEE_KIND_LABELS[p.kind]}
                        {p.note ? ` · ${p.note}` : ''}
                      </Text>
                    </WhenNarrow>
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM}>{PAYEE_KIND_LABELS[p.kind]}</Table.Td>
                  <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {p.destination}
                  </Table.Td>
                  <Table.Td data-testid="payee-usable">
                    <Usable payee={p} />
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                    {p.note ?? ''}
                  </Table.Td>
                  {mayManage && (
                    <Table.Td>
                      {/* The buttons wrap onto a second line in a narrow table, never off its edge. */}
                      {p.state === 'active' && (
                        <Group gap="xs" justify="flex-end">
                          <Button size="xs" variant="default" onClick={() => setForm({ editing: p })} aria-label={`Edit ${p.name}`}>
                            Edit
                          </Button>
                          <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                            Remove
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
      </Paper>

      {form && <PayeeForm editing={form.editing} coolingOffHours={period ?? 0} onClose={() => setForm(null)} onSaved={list.reload} />}
      <ConfirmModal
        opened={removing !== null}
        title={`Remove ${removing?.name ?? 'this payee'}?`}
        confirmLabel="Remove payee"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await call(OPS.removePayee, { id: removing.payeeId });
          await list.reload();
        }}
      >
        Its destination is then not in the book. The payee is kept, marked removed, for the record; adding it again starts a new cooling-off
        period.
      </ConfirmModal>
    </Stack>
  );
}
