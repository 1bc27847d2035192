import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { Throttle } from './throttle.js';

/** What sign-in, credentials and password checks need: the people, their sessions, keys and second factors, the organisation. */
export interface AuthServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'users' | 'sessions' | 'apiKeys' | 'organisation' | 'secondFactors'>;
  /** Password and second-factor code guesses, per account and client, admitted before the check runs. */
  throttle: Throttle;
}
