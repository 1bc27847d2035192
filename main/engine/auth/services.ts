import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { Throttle } from './throttle.js';

/** What sign-in, credentials and password checks need: the people, their sessions and keys, the organisation. */
export interface AuthServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'users' | 'sessions' | 'apiKeys' | 'organisation'>;
  /** Password guesses, per account and client, admitted before the hash runs. */
  throttle: Throttle;
}
