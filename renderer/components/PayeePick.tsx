import { Select } from '@mantine/core';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { useSession } from '../state/store.js';
import { formatTime } from './format.js';
import { useLiveReload } from './useLive.js';
import { useLoad } from './useLoad.js';

/**
 * "Pick a payee" for a payment form: fills the destination with a payee's paymail or address (identity-key
 * payees are not offered: a destination field takes no key). Shows nothing while the book has none.
 */
export function PayeePick({ destination, onPick }: { destination: string; onPick: (destination: string) => void }) {
  const call = useSession((s) => s.call);
  const list = useLoad(() => call(OPS.listPayees, {}), []);
  useLiveReload(['payees'], () => void list.reload());
  const payees = (list.data?.payees ?? []).filter((p) => p.kind !== 'identity_key');
  if (payees.length === 0) return null;
  const typed = destination.trim().toLowerCase();
  const current = payees.find((p) => p.destination.toLowerCase() === typed);
  return (
    <Select
      label="Pick a payee"
      placeholder="From the payee book, or type the destination below"
      data={payees.map((p) => ({
        value: p.payeeId,
        label: `${p.name} · ${p.destination}${p.usable ? '' : ` (cooling off until ${formatTime(p.usableFrom)})`}`,
      }))}
      value={current?.payeeId ?? null}
      onChange={(id) => {
        const p = payees.find((x) => x.payeeId === id);
        if (p) onPick(p.destination);
      }}
      searchable
      clearable={false}
    />
  );
}
