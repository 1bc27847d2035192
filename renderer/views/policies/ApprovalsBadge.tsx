import { Badge } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

/** The navigation's count of payments awaiting the signed-in user's vote, refreshed by the live stream. */
export function ApprovalsBadge() {
  const call = useSession((s) => s.call);
  const count = useLoad(async () => (await call(OPS.listApprovals, { state: 'awaiting_approval' })).awaitingMyVote, []);
  useLiveReload(['approvals'], () => void count.reload());
  if (!count.data) return null;
  return (
    <Badge size="sm" color="yellow" circle data-testid="approvals-count" aria-label={`${count.data} awaiting your vote`}>
      {count.data}
    </Badge>
  );
}
