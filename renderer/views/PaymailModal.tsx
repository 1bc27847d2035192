import { Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type WalletSummary } from '../../shared/operations.js';
import { FormFooter } from '../components/FormFooter.js';
import { notifySuccess } from '../components/notify.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/** Changes a wallet's paymail alias and turns it on or off (the same operations the public service's SDK calls). */
export function PaymailModal({ wallet, onClose, onSaved }: { wallet: WalletSummary; onClose: () => void; onSaved: () => void }) {
  const call = useSession((s) => s.call);
  const alias = wallet.paymail ? wallet.paymail.slice(0, wallet.paymail.lastIndexOf('@')) : '';
  const domain = wallet.paymail ? wallet.paymail.slice(wallet.paymail.lastIndexOf('@') + 1) : null;
  const [newAlias, setNewAlias] = useState(alias);
  const [active, setActive] = useState(wallet.paymail !== null && wallet.paymailActive);
  const { busy, error, fieldErrors, onSubmit } = useSubmit(async () => {
    let paymail = wallet.paymail;
    if (newAlias.trim() && newAlias.trim() !== alias) {
      paymail = (await call(OPS.updatePaymail, { walletId: wallet.walletID, newPaymailId: newAlias.trim() })).paymail;
    }
    const wasActive = wallet.paymail !== null && wallet.paymailActive;
    if (active !== wasActive || (active && paymail === null)) {
      paymail = (await call(OPS.activatePaymail, { walletId: wallet.walletID, activate: active })).paymail;
    }
    notifySuccess(paymail ? `“${wallet.walletTitle}” is ${paymail}${active ? '' : ' (inactive: it receives nothing)'}.` : 'Saved.');
    onSaved();
    onClose();
  }, ['newPaymailId', 'activate']);

  return (
    <Modal opened onClose={onClose} title={`Paymail of “${wallet.walletTitle}”`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Alias"
            description={
              domain
                ? `The part before @${domain}. Changing it stops the old address at once.`
                : 'Leave empty for a numeric alias when you turn it on.'
            }
            value={newAlias}
            error={fieldErrors.newPaymailId}
            onChange={(e) => setNewAlias(e.currentTarget.value)}
          />
          <Switch label="Active (receives payments)" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          {!active && (
            <Text size="sm" c="dimmed">
              An inactive paymail is kept for the wallet but answers no one.
            </Text>
          )}
          <FormFooter error={error} onCancel={onClose} submitLabel="Save" busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
