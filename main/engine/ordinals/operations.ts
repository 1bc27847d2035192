import { ORDINALS_OPERATIONS } from '../../../shared/contracts/ordinals.js';
import { implement } from '../operation.js';
import { bsv21Token, deployBsv21, inscriptionContent, listOrdinals, sendBsv21, sendInscription } from './ops.js';
import type { OrdinalServices } from './services.js';

export const ORDINALS_IMPLEMENTATIONS = implement<OrdinalServices>()(ORDINALS_OPERATIONS, {
  listOrdinals: { run: listOrdinals },
  inscriptionContent: { run: inscriptionContent },
  deployBsv21: { run: deployBsv21, target: (i, o) => o?.tokenId ?? `BSV-21 ${i.sym}` },
  sendBsv21: { run: sendBsv21, target: (i, o) => o?.txid ?? i.tokenId },
  sendInscription: { run: sendInscription, target: (i, o) => o?.txid ?? i.outpoint },
  bsv21Token: { run: bsv21Token },
});
