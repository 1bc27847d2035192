import { TOKEN_OPERATIONS } from '../../../shared/contracts/tokens.js';
import { implement } from '../operation.js';
import { listTokens, tokenDetails } from './details.js';
import { balance, lookup } from './holdings.js';
import { issueToken } from './issue.js';
import { redeemToken } from './redeem.js';
import { send } from './send.js';
import type { TokenServices } from './services.js';
import { deleteTokenTemplate, installTokenTemplate, listTokenTemplates } from './template-ops.js';

export const TOKEN_IMPLEMENTATIONS = implement<TokenServices>()(TOKEN_OPERATIONS, {
  issueToken: { run: issueToken, target: (i, o) => o?.tokenId ?? `${i.protocolId} ${i.symbol}` },
  tokenDetails: { run: tokenDetails },
  listTokens: { run: listTokens },
  send: { run: send, target: (_i, o) => o?.txIds.join(',') || null },
  redeemToken: { run: redeemToken, target: (_i, o) => o?.txIds.join(',') || null },
  balance: { run: balance },
  lookup: { run: lookup },
  installTokenTemplate: { run: installTokenTemplate, target: (i) => i.protocolId },
  listTokenTemplates: { run: listTokenTemplates },
  deleteTokenTemplate: { run: deleteTokenTemplate, target: (i) => i.protocolId },
});
