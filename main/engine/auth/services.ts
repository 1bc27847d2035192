import type { CoreServices } from '../context.js';
import type { Throttle } from './throttle.js';

/** What sign-in, credentials and password checks need. */
export interface AuthServices extends CoreServices {
  /** Password guesses, per account and client, admitted before the hash runs. */
  throttle: Throttle;
}
