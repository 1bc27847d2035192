import { ROLE_LABELS, type Role } from '../../../shared/roles.js';
import { amountProblem, type ActionDraft, type AmountDraft, type PolicyDraft } from './draft.js';

/** Someone in the organisation, as the editor knows them (to count who could approve). */
export interface Person {
  email: string;
  role: Role;
}

/** A condition's amount that is ticked but is not one: saving would drop the condition and widen the rule. */
const badAmount = (a: AmountDraft) => (a.text.trim() === '' ? 'is empty' : amountProblem(a) ? 'is not an amount' : null);

/** An action asking for more approvals than there are people who may give them: every such payment would wait for ever. */
function approverProblem(a: ActionDraft, people: readonly Person[] | null): string | null {
  if (a.action !== 'approve' || people === null) return null;
  const approvers = people.filter((p) => a.roles.includes(p.role) || a.users.includes(p.email)).length;
  if (approvers >= a.count) return null;
  const who = [...a.roles.map((r) => `${ROLE_LABELS[r]}s`), ...a.users].join(', ') || 'nobody';
  return `it needs ${a.count} approval${a.count === 1 ? '' : 's'} from ${who}, but ${approvers === 0 ? 'nobody' : `only ${approvers}`} in the organisation can give ${a.count === 1 ? 'it' : 'them'}`;
}

/**
 * What keeps the draft from meaning what the editor shows, in words; empty when it can be saved. The engine
 * checks the document it is sent, but a half-typed amount never reaches it (draft.ts leaves it out of the
 * rule), so the rule would quietly cover every payment: that is refused here instead.
 */
export function draftProblems(d: PolicyDraft, people: readonly Person[] | null): string[] {
  const problems: string[] = [];
  d.rules.forEach((r, i) => {
    const rule = `Rule ${i + 1}${r.name.trim() ? ` (${r.name.trim()})` : ''}`;
    const over = r.amountOver && badAmount(r.amountOver);
    if (over) problems.push(`${rule}: “Amount over” ${over}; fix it or untick it.`);
    const windowOver = r.window && badAmount(r.window.over);
    if (windowOver) problems.push(`${rule}: the amount over a period ${windowOver}; fix it or untick it.`);
    const approvers = approverProblem(r, people);
    if (approvers) problems.push(`${rule}: ${approvers}.`);
  });
  const fallback = approverProblem(d.default, people);
  if (fallback) problems.push(`The default: ${fallback}.`);
  return problems;
}
