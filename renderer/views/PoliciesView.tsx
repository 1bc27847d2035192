import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { DEFAULT_WALLET_ID } from '../../shared/wallet-schemas.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useWallets } from '../components/useWallets.js';
import { useSession } from '../state/store.js';
import { draftOfDocument } from './policies/draft.js';
import { PolicyEditor } from './policies/PolicyEditor.js';
import { ActivePolicy, PolicyHistory, ProposedPolicy } from './policies/PolicyVersions.js';
import type { PolicyChoices } from './policies/RuleConditions.js';

/** What the editor suggests: the organisation's wallets, users and payees (admins only; others just read). */
function useChoices(admin: boolean) {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const myEmail = useSession((s) => s.me?.email ?? '');
  const users = useLoad(async () => (admin ? (await call(OPS.listUsers, {})).users : []), [admin]);
  const payees = useLoad(async () => (await call(OPS.listPayees, {})).payees, []);
  useLiveReload(['payees'], () => void payees.reload());
  const choices: PolicyChoices = {
    // Every user's default wallet has the same walletID: a rule names yours with your e-mail (the API refuses it bare).
    wallets: (wallets.data ?? []).map((w) => ({
      value: w.walletID === DEFAULT_WALLET_ID ? `${myEmail}/${w.walletID}` : w.walletID,
      label: `${w.walletTitle} (${w.walletID === DEFAULT_WALLET_ID ? `${myEmail}’s default` : w.walletID})`,
    })),
    users: (users.data ?? []).map((u) => u.email),
    people: users.data ? users.data.map((u) => ({ email: u.email, role: u.role })) : null,
    payees: (payees.data ?? []).map((p) => ({ value: p.payeeId, label: p.name })),
  };
  const payeeName = (id: string) => payees.data?.find((p) => p.payeeId === id)?.name ?? id;
  return { choices, payeeName };
}

/** The payment policy: the version in force in words, a change awaiting another admin, every version, and (admins) the editor. */
export function PoliciesView() {
  const call = useSession((s) => s.call);
  const me = useSession((s) => s.me)!;
  const admin = me.role === 'admin';
  const policy = useLoad(() => call(OPS.getPolicy, {}), []);
  useLiveReload(['policy'], () => void policy.reload());
  const { choices, payeeName } = useChoices(admin);
  const p = policy.data;

  return (
    <Stack maw={1000}>
      <Title order={2}>Payment policy</Title>
      {policy.error && (
        <Alert color="red" role="alert">
          {policy.error}
        </Alert>
      )}
      {!p && policy.loading && <Loader size="sm" />}
      {p && (
        <>
          <ActivePolicy active={p.active} />
          {p.proposed && <ProposedPolicy proposed={p.proposed} myEmail={me.email} isAdmin={admin} onDecided={() => void policy.reload()} />}
          {admin ? (
            <PolicyEditor
              // A new version in force (or proposed) starts the editor again from it.
              key={`${p.active?.version ?? 0}-${p.proposed?.version ?? 0}`}
              initial={draftOfDocument(p.proposed?.document ?? p.active?.document)}
              choices={choices}
              payeeName={payeeName}
              fourEyes={p.fourEyes}
              onSaved={() => void policy.reload()}
            />
          ) : (
            <Text size="sm" c="dimmed">
              Admins write the policy.
            </Text>
          )}
          <PolicyHistory versions={p.versions} />
        </>
      )}
    </Stack>
  );
}
