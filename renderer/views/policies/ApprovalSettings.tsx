import { Button, Group, NumberInput, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { notifySuccess } from '../../components/notify.js';
import { useLoad } from '../../components/useLoad.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';

/** How long a payment may await approval before it expires (admins). */
export function ApprovalSettings() {
  const call = useSession((s) => s.call);
  const settings = useLoad(() => call(OPS.approvalSettings, {}), []);
  const [hours, setHours] = useState<number | string>('');
  useEffect(() => {
    if (settings.data) setHours(settings.data.expiryHours);
  }, [settings.data]);
  const save = useSubmit(async () => {
    const r = await call(OPS.approvalSettings, { expiryHours: Number(hours) });
    notifySuccess(`Payments now expire after ${r.expiryHours} hours awaiting approval.`);
    await settings.reload();
  }, ['expiryHours']);
  return (
    <Paper withBorder p="sm">
      <form onSubmit={save.onSubmit}>
        <Group align="flex-end">
          <NumberInput
            label="Approvals expire after (hours)"
            min={1}
            max={720}
            allowDecimal={false}
            hideControls
            value={hours}
            onChange={setHours}
            error={save.fieldErrors.expiryHours ?? save.error}
            w={240}
          />
          <Button type="submit" variant="default" loading={save.busy}>
            Save
          </Button>
          {settings.error && <Text c="red">{settings.error}</Text>}
        </Group>
      </form>
    </Paper>
  );
}
