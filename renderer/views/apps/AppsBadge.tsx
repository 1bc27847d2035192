import { Badge } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

/** The navigation's count of apps waiting to be allowed or denied, refreshed by the live stream. */
export function AppsBadge() {
  const call = useSession((s) => s.call);
  const count = useLoad(async () => (await call(OPS.listApps, {})).apps.filter((a) => a.state === 'pending').length, []);
  useLiveReload(['apps'], () => void count.reload());
  if (!count.data) return null;
  return (
    <Badge size="sm" color="yellow" circle data-testid="apps-pending-count" aria-label={`${count.data} waiting to be allowed`}>
      {count.data}
    </Badge>
  );
}
