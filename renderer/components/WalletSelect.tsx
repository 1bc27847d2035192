import { Select } from '@mantine/core';
import type { WalletSummary } from '../../shared/operations.js';
import { formatBsv } from './format.js';

/** Picks one of the user's wallets; the balance shows beside each title. */
export function WalletSelect({
  wallets,
  value,
  onChange,
  label = 'Wallet',
}: {
  wallets: WalletSummary[] | null;
  value: string | null;
  onChange: (id: string | null) => void;
  label?: string;
}) {
  return (
    <Select
      label={label}
      placeholder="Your default wallet"
      data={(wallets ?? []).map((w) => ({
        value: w.walletID,
        label: `${w.walletTitle} · ${formatBsv(w.balance.confirmed + w.balance.unconfirmed)} BSV`,
      }))}
      value={value}
      onChange={onChange}
      clearable
    />
  );
}
