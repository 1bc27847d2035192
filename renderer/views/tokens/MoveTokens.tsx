import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type LookupCoin } from '../../../shared/operations.js';
import { isNftProtocol } from '../../../shared/token-protocols.js';
import { formatSats } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { formatTokenAmount } from './token-amount.js';
import { humaniseMessage, LocalCheck } from '../../components/errors.js';

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
  const decimals = coin.decimals ?? 0;
  const held =
    decimals > 0
      ? `${formatTokenAmount(coin.amount ?? 0, decimals)} ${coin.symbol} (${(coin.amount ?? 0).toLocaleString('en-US')} units)`
      : `${(coin.amount ?? 0).toLocaleString('en-US')} ${coin.symbol}`;
  // Checked here, never clamped: a number typed above what is held is refused, not turned into "all of it".
  const units = decimals > 0 ? 'token units' : 'tokens';
  const problem = (): string | null => {
    if (nft) return sn === null ? 'Pick a serial.' : null;
    const n = Number(amount);
    if (amount === '' || !Number.isSafeInteger(n) || n < 1) return `Enter a whole number of ${units}, 1 or more.`;
    if (n > (coin.amount ?? 0)) return `You hold ${held}: ${n.toLocaleString('en-US')} is more than that.`;
    return null;
  };
  const what = nft
    ? `${coin.symbol} #${sn}`
    : `${Number(amount).toLocaleString('en-US')} ${units === 'tokens' ? coin.symbol : `${units} of ${coin.symbol}`}`;
  const [reviewing, setReviewing] = useState(false);
  const go = useSubmit(async () => {
    const wrong = problem();
    if (wrong) throw new LocalCheck(wrong);
    // Tokens leave the wallet for good: the user sees exactly what goes where before it is sent.
    if (!reviewing) return setReviewing(true);
    const item = nft ? { tokenId: coin.tokenId!, sn: Number(sn) } : { tokenId: coin.tokenId!, amount: Number(amount) };
    const r =
      kind === 'send'
        ? await call(OPS.send, { walletId: walletId ?? undefined, dataArray: [{ ...item, to, notes: notes || undefined }] })
        : await call(OPS.redeemToken, { walletId: walletId ?? undefined, dataArray: [item] });
    setReviewing(false);
    if (r.errors.length) throw new LocalCheck(humaniseMessage(r.errors.map((e) => e.msg).join('; ')));
    notifySuccess(
      `${kind === 'send' ? `Sent ${what} to ${to}` : `Redeemed ${what}`}: transaction ${r.txIds.map((t) => t.slice(0, 12)).join(', ')}…`,
    );
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
              onChange={(e) => {
                setTo(e.currentTarget.value);
                setReviewing(false);
              }}
              required
              data-autofocus
            />
          )}
          {nft ? (
            <Select
              label="Serial"
              data={(coin.sn ?? []).map((n) => ({ value: String(n), label: `#${n}` }))}
              value={sn}
              onChange={(v) => {
                setSn(v);
                setReviewing(false);
              }}
              allowDeselect={false}
              required
            />
          ) : (
            <NumberInput
              hideControls
              label={decimals > 0 ? 'Token units' : 'Tokens'}
              description={`You hold ${held}`}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                setReviewing(false);
              }}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
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
          {reviewing && (
            <Alert color={kind === 'redeem' ? 'orange' : 'blue'} data-testid="token-move-review">
              {kind === 'send'
                ? `Send ${what} to ${to}. The network fee is paid in BSV from this wallet.`
                : `Redeem ${what}: the tokens are dissolved for good.`}
            </Alert>
          )}
          <Group>
            {reviewing && (
              <Button variant="default" onClick={() => setReviewing(false)}>
                Back
              </Button>
            )}
            <Button type="submit" loading={go.busy} color={kind === 'redeem' ? 'orange' : undefined}>
              {reviewing ? (kind === 'send' ? 'Confirm and send' : 'Confirm and redeem') : 'Review'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
