import { Stack } from '@mantine/core';
import { canCall, OPERATIONS as OPS } from '../../../shared/operations.js';
import { useSession } from '../../state/store.js';
import { MakeOffer } from './MakeOffer.js';
import { MyOffers } from './MyOffers.js';
import { TakeOffer } from './TakeOffer.js';

/** Atomic swaps: offer held tokens for BSV or another token, take someone's offer, and follow or withdraw one's own. */
export function Swaps({ walletId, refresh, onChanged }: { walletId: string | null; refresh: number; onChanged: () => void }) {
  const role = useSession((s) => s.me!.role);
  return (
    <Stack>
      {canCall(role, OPS.offer) && <MakeOffer walletId={walletId} refresh={refresh} onMade={onChanged} />}
      {canCall(role, OPS.swap) && <TakeOffer walletId={walletId} onTaken={onChanged} />}
      <MyOffers walletId={walletId} refresh={refresh} onChanged={onChanged} />
    </Stack>
  );
}
