import { setTimeout as sleep } from 'node:timers/promises';
import type { ChainProvider } from './types.js';

/**
 * Whether the broadcaster's status says a node of the network took the transaction (ARC's SEEN_ON_NETWORK,
 * ACCEPTED_BY_NETWORK or MINED; the embedded node's word is the chain's). What ARC only received or stored
 * vouches for nothing: anyone can have ARC store anything. A status that cannot be had says no.
 */
export async function nodesAccepted(chain: Pick<ChainProvider, 'getTxStatus'>, txid: string): Promise<boolean> {
  return (await chain.getTxStatus(txid).catch(() => null))?.seenOnNetwork === true;
}

/**
 * `nodesAccepted`, asked up to `asks` times `pauseMs` apart: an honest ARC's status may lag its own answer
 * to the broadcast by a moment.
 */
export async function nodesAcceptedWithin(
  chain: Pick<ChainProvider, 'getTxStatus'>,
  txid: string,
  asks: number,
  pauseMs: number,
): Promise<boolean> {
  for (let ask = 0; ask < asks; ask++) {
    if (ask > 0) await sleep(pauseMs);
    if (await nodesAccepted(chain, txid)) return true;
  }
  return false;
}
