import { Badge } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

/**
 * The navigation's count of what waits for a decision in the Apps view: apps waiting to be allowed and
 * permission requests of allowed apps (their calls wait too), refreshed by the live stream.
 */
export function AppsBadge() {
  const call = useSession((s) => s.call);
  const count = useLoad(async () => {
    const [apps, permissions] = await Promise.all([call(OPS.listApps, {}), call(OPS.listAppPermissions, {})]);
    return apps.apps.filter((a) => a.state === 'pending').length + permissions.permissions.filter((p) => p.state === 'pending').length;
  }, []);
  useLiveReload(['apps'], () => void count.reload());
  if (!count.data) return null;
  return (
    <Badge size="sm" color="yellow" circle data-testid="apps-pending-count" aria-label={`${count.data} waiting for a decision`}>
      {count.data}
    </Badge>
  );
}
