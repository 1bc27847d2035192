import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type LookupCoin } from '../../../shared/operations.js';
import { isNftProtocol } from '../../../shared/token-protocols.js';
import { formatSats } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';

/** Sends tokens to a paymail or an address, or redeems them (their satoshis go to the redemption address). */
export function MoveTokens({
  kind,
  coin,
  walletId,
  onClose,
  onDone,
}: {
  kind: 'send' | 'redeem';
  coin: LookupCoin;
  walletId: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const call = useSession((s) => s.call);
  const nft = isNftProtocol(coin.protocol);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState<number | string>(nft ? 1 : '');
  const [sn, setSn] = useState<string | null>(coin.sn?.length ? String(coin.sn[0]) : null);
  const [notes, setNotes] = useState('');
  const go = useSubmit(async () => {
    const item = nft ? { tokenId: coin.tokenId!, sn: Number(sn) } : { tokenId: coin.tokenId!, amount: Number(amount) };
    const r =
      kind === 'send'
        ? await call(OPS.send, { walletId: walletId ?? undefined, dataArray: [{ ...item, to, notes: notes || undefined }] })
        : await call(OPS.redeemToken, { walletId: walletId ?? undefined, dataArray: [item] });
    if (r.errors.length) throw new Error(r.errors.map((e) => e.msg).join('; '));
    notifySuccess(`${kind === 'send' ? 'Sent' : 'Redeemed'}: ${r.txIds.map((t) => t.slice(0, 12)).join(', ')}…`);
    onDone();
  });
  return (
    <Modal opened onClose={onClose} title={`${kind === 'send' ? 'Send' : 'Redeem'} ${coin.symbol}`}>
      <form onSubmit={go.onSubmit}>
        <Stack gap="sm">
          {kind === 'send' && (
            <TextInput
              label="To"
              description="A paymail or an address"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              required
              data-autofocus
            />
          )}
          {nft ? (
            <Select
              label="Serial"
              data={(coin.sn ?? []).map((n) => ({ value: String(n), label: `#${n}` }))}
              value={sn}
              onChange={setSn}
              allowDeselect={false}
              required
            />
          ) : (
            <NumberInput
              hideControls
              label="Tokens"
              description={`You hold ${coin.amount}`}
              value={amount}
              onChange={setAmount}
              min={1}
              max={coin.amount}
              allowDecimal={false}
              required
            />
          )}
          {kind === 'send' && <TextInput label="Note" value={notes} onChange={(e) => setNotes(e.currentTarget.value)} maxLength={500} />}
          {kind === 'redeem' && (
            <Text size="sm" c="dimmed">
              The tokens are dissolved: their satoshis ({formatSats((nft ? 1 : Number(amount) || 0) * (coin.satsPerToken ?? 0))}) go to the
              redemption address {coin.redeemAddr}.
            </Text>
          )}
          {go.error && (
            <Alert color="red" role="alert">
              {go.error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={go.busy} color={kind === 'redeem' ? 'orange' : undefined}>
              {kind === 'send' ? 'Send' : 'Redeem'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
