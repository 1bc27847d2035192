import { Select } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { WalletSummary } from '../../shared/operations.js';
import { DEFAULT_WALLET_ID } from '../../shared/wallet-schemas.js';
import { formatBsv } from './format.js';

/**
 * Picks one of the user's wallets; the balance shows beside each title. With none picked, the form acts on
 * the user's default wallet, which the server creates on first use: so once the list is known, a user who
 * has wallets but no default one gets their first wallet picked (a faucet or a payment never lands in a
 * wallet they did not know they had).
 */
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
  const picked = useRef(false);
  useEffect(() => {
    if (picked.current || value !== null || !wallets?.length) return;
    picked.current = true;
    const fallback = wallets.find((w) => w.walletID === DEFAULT_WALLET_ID) ?? wallets[0];
    onChange(fallback.walletID);
  }, [wallets, value, onChange]);
  return (
    <Select
      label={label}
      placeholder={wallets?.length === 0 ? 'Your default wallet (created when first used)' : 'Pick a wallet'}
      data={(wallets ?? []).map((w) => ({
        value: w.walletID,
        label: `${w.walletTitle} · ${formatBsv(w.balance.confirmed + w.balance.unconfirmed)} BSV`,
      }))}
      value={value}
      onChange={onChange}
      // Picking the picked wallet again keeps it (Mantine would clear it, leaving the default wallet).
      allowDeselect={false}
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label.toLowerCase()}` }}
    />
  );
}
