import { unauthorized } from '../werr.js';

/**
 * Baskets no app may name. `default` is the wallet's own coins in the reference (its change), and baskets
 * starting with `admin` are its permission manager's own: the reference's permission manager refuses both
 * to apps, and so does Keystead. An app sees and spends the wallet's coins only through createAction's
 * funding, under the organisation's spending controls; listOutputs never lists them.
 */
export function appBasket(basket: string): string {
  if (basket === 'default' || basket.startsWith('admin'))
    throw unauthorized(`The basket ${basket} is the wallet's own: apps cannot list, insert into or relinquish from it.`);
  return basket;
}
