import { PAYEE_OPERATIONS } from '../../../shared/contracts/payees.js';
import type { PayeeOutput } from '../../../shared/operations.js';
import { implement } from '../operation.js';
import { addPayee, listPayees, payeeSettings, removePayee, setPayeeSettings, updatePayee } from './manage.js';
import type { PayeeServices } from './services.js';

/** The audit names the payee: its id, name and destination (what it was changed to), never more. */
const named = (p: PayeeOutput) => `${p.payeeId} "${p.name}" (${p.kind} ${p.destination})`;

export const PAYEE_IMPLEMENTATIONS = implement<PayeeServices>()(PAYEE_OPERATIONS, {
  listPayees: { run: listPayees },
  addPayee: { run: addPayee, target: (i, o) => (o ? named(o) : `"${i.name}" (${i.destination})`) },
  updatePayee: { run: updatePayee, target: (i, o) => (o ? named(o) : i.id) },
  removePayee: { run: removePayee, target: (i, o) => (o ? named(o) : i.id) },
  payeeSettings: { run: payeeSettings },
  setPayeeSettings: { run: setPayeeSettings, target: (i) => `coolingOffHours ${i.coolingOffHours}` },
});
