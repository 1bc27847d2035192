import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { Transaction } from '@bsv/sdk';
import { LOCAL_BLOCK_VERSION } from '../chain/local/local-node.js';
import type { LocalChain } from '../chain/local/local-chain.js';
import { LOCAL_BITS } from '../chain/block.js';
import type { BroadcastResult, ExchangeRate, RejectReason } from '../chain/types.js';
import type { RouteDefinition } from '../../shared/route.js';
import { CHAIN_ROUTES } from '../../shared/routes/chain.js';
import { registerRoute, type RouteBinding } from './route-binding.js';

/**
 * The embedded node's public face, in the shapes of the services it stands in for: ARC under
 * /chain/arc and WhatsOnChain under /chain/woc/v1/bsv/local, so @bsv/sdk's ARC broadcaster, its
 * WhatsOnChain chain tracker, or another Keystead can use it unchanged. Like the public services these
 * need no user credentials; an optional API key can be required. These routes answer in the foreign
 * protocols' shapes, not Keystead's envelope; each is defined, with what it accepts, in
 * shared/routes/chain.ts, and only its handler is here.
 */
export interface ChainRouteOptions {
  node: LocalChain;
  usdRate: () => ExchangeRate | null;
  /** When set, callers must send it (ARC: Authorization: Bearer <key>; WhatsOnChain: Authorization: <key>). */
  apiKey?: string;
}

/** The broadcast routes take a whole transaction, in hex. */
const MAX_TX_BODY = 32 * 1024 * 1024;

const ARC_STATUS: Record<RejectReason, number> = {
  malformed: 461,
  'bad-signature': 461,
  'too-large': 461,
  'missing-inputs': 462,
  'outputs-exceed-inputs': 462,
  dust: 464,
  'fee-too-low': 465,
  'double-spend': 200,
};

const ARC_TITLE: Record<number, string> = {
  461: 'Malformed transaction',
  462: 'Invalid inputs',
  464: 'Invalid outputs',
  465: 'Fee too low',
};

export function arcBroadcastReply(
  result: BroadcastResult,
  status: { blockHash: string | null; blockHeight: number | null; state: string },
) {
  const timestamp = new Date().toISOString();
  if (result.status === 'accepted') {
    const mined = status.state === 'mined';
    return {
      code: 200,
      body: {
        txid: result.txid,
        txStatus: mined ? 'MINED' : 'SEEN_ON_NETWORK',
        blockHash: status.blockHash ?? '',
        blockHeight: status.blockHeight ?? 0,
        extraInfo: result.alreadyKnown ? 'Transaction already known' : '',
        status: 200,
        title: 'OK',
        timestamp,
      },
    };
  }
  if (result.status === 'unknown') {
    return {
      code: 503,
      body: {
        type: 'https://arc.bitcoinsv.com/errors/503',
        title: 'Service unavailable',
        status: 503,
        detail: result.message,
        instance: null,
        txid: result.txid,
      },
    };
  }
  if (result.reason === 'double-spend') {
    // `reason` marks our node's verdict as final (real ARC leaves a double spend open).
    return {
      code: 200,
      body: {
        txid: result.txid,
        txStatus: 'DOUBLE_SPEND_ATTEMPTED',
        extraInfo: result.message,
        competingTxs: result.competingTxs ?? [],
        reason: result.reason,
        status: 200,
        title: 'OK',
        timestamp,
      },
    };
  }
  const code = ARC_STATUS[result.reason];
  return {
    code,
    body: {
      type: `https://arc.bitcoinsv.com/errors/${code}`,
      title: ARC_TITLE[code] ?? 'Rejected',
      status: code,
      detail: result.message,
      instance: null,
      txid: result.txid,
      extraInfo: result.reason,
      reason: result.reason,
    },
  };
}

function keyMatches(given: string | undefined, key: string): boolean {
  if (!given) return false;
  const token = given.replace(/^Bearer\s+/i, '');
  const a = Buffer.from(token);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerChainRoutes(app: FastifyInstance, { node, usdRate, apiKey }: ChainRouteOptions): void {
  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    if (apiKey && !keyMatches(req.headers.authorization, apiKey)) {
      return reply
        .code(401)
        .send({ status: 401, title: 'Unauthorized', detail: 'This node requires its API key in the Authorization header.' });
    }
  };
  // The API key is checked first: a caller without it learns nothing, not even that its request was malformed.
  const route = <D extends RouteDefinition>(definition: D, handler: RouteBinding<D>['handler'], bodyLimit?: number) =>
    registerRoute(app, definition, { preHandler: guard, handler, bodyLimit });
  const R = CHAIN_ROUTES;

  // ---- ARC ----
  route(
    R.arcBroadcast,
    async (_req, reply, { body: raw }) => {
      const result = await node.accept(raw);
      const status = result.txid ? await node.txStatus(result.txid) : { blockHash: null, blockHeight: null, state: 'unknown' };
      const r = arcBroadcastReply(result, status);
      return reply.code(r.code).send(r.body);
    },
    MAX_TX_BODY,
  );

  route(R.arcStatus, async (_req, reply, { params }) => {
    const s = await node.txStatus(params.txid.toLowerCase());
    if (s.state === 'unknown') {
      return reply.code(404).send({ status: 404, title: 'Not found', detail: `Transaction ${params.txid} is not known.` });
    }
    return reply.send({
      txid: s.txid,
      txStatus: s.state === 'mined' ? 'MINED' : 'SEEN_ON_NETWORK',
      blockHash: s.blockHash ?? '',
      blockHeight: s.blockHeight ?? 0,
      merklePath: s.merklePath ?? '',
      extraInfo: '',
      timestamp: new Date().toISOString(),
    });
  });

  route(R.arcPolicy, async (_req, reply) =>
    reply.send({
      policy: {
        maxscriptsizepolicy: 100_000_000,
        maxtxsigopscountspolicy: 4_294_967_295,
        maxtxsizepolicy: 10 * 1024 * 1024,
        miningFee: { satoshis: node.policy.satoshis, bytes: node.policy.bytes },
      },
      timestamp: new Date().toISOString(),
    }),
  );

  // ---- development: what makes this a test chain (another Keystead on --network remote uses these) ----
  route(R.faucet, async (_req, reply, { body }) => reply.send(await node.faucet(body.address, body.satoshis)));
  route(R.mine, async (_req, reply, { body }) => reply.send(await node.mineBlocks(body.blocks)));
  route(R.mempool, async (_req, reply) => reply.send({ size: await node.mempoolSize() }));

  // ---- WhatsOnChain ----
  const header = async (height: number, tip: number) => {
    const b = await node.blockAt(height);
    // WhatsOnChain's fields, enough to rebuild the 80-byte header (SPV clients check headers themselves).
    return (
      b && {
        hash: b.hash,
        height: b.height,
        version: LOCAL_BLOCK_VERSION,
        merkleroot: b.merkleRoot,
        time: b.time,
        bits: LOCAL_BITS.toString(16),
        nonce: 0,
        previousblockhash: b.prevHash,
        confirmations: tip - b.height + 1,
        nTx: b.txCount,
      }
    );
  };

  route(R.wocInfo, async (_req, reply) => {
    const tip = await node.tip();
    return reply.send({ chain: 'local', blocks: tip.height, headers: tip.height, bestblockhash: tip.hash });
  });
  route(R.wocHeaders, async (_req, reply) => {
    const tip = (await node.tip()).height;
    const list = [];
    for (let h = tip; h >= Math.max(0, tip - 9); h--) list.push(await header(h, tip));
    return reply.send(list);
  });
  route(R.wocHeader, async (_req, reply, { params }) => {
    const h = await header(Number(params.height), (await node.tip()).height);
    return h ? reply.send(h) : reply.code(404).send(R.wocHeader.refusal.body);
  });
  route(R.wocUnspent, async (_req, reply, { params }) =>
    reply.send(
      (await node.utxos(params.address)).map((u) => ({ height: u.height ?? 0, tx_pos: u.vout, tx_hash: u.txid, value: u.satoshis })),
    ),
  );
  route(R.wocHistory, async (_req, reply, { params }) =>
    reply.send((await node.history(params.address)).map((h) => ({ tx_hash: h.txid, height: h.height ?? 0 }))),
  );
  route(R.wocBalance, async (_req, reply, { params }) => {
    const utxos = await node.utxos(params.address);
    const sum = (confirmed: boolean) => utxos.filter((u) => (u.height !== null) === confirmed).reduce((s, u) => s + u.satoshis, 0);
    return reply.send({ confirmed: sum(true), unconfirmed: sum(false) });
  });
  route(R.wocTxHex, async (_req, reply, { params }) => {
    const hex = await node.txHex(params.txid.toLowerCase());
    return hex ? reply.type('text/plain').send(hex) : reply.code(404).type('text/plain').send('Not Found');
  });
  route(R.wocSpent, async (_req, reply, { params }) => {
    const txid = params.txid.toLowerCase();
    const spender = await node.spentBy(txid, Number(params.vout));
    if (!spender) return reply.code(404).send(R.wocSpent.refusal.body);
    const vin = Transaction.fromHex((await node.txHex(spender))!).inputs.findIndex(
      (i) => i.sourceTXID === txid && i.sourceOutputIndex === Number(params.vout),
    );
    return reply.send({ txid: spender, vin, status: (await node.txStatus(spender)).state === 'mined' ? 'confirmed' : 'unconfirmed' });
  });
  route(
    R.wocBroadcast,
    async (_req, reply, { body }) => {
      const r = await node.accept(body.txhex);
      if (r.status === 'accepted') return reply.send(r.txid);
      return r.status === 'rejected' ? reply.code(400).send(`${r.reason}: ${r.message}`) : reply.code(503).send(r.message);
    },
    MAX_TX_BODY,
  );
  route(R.wocExchangeRate, async (_req, reply) => {
    const r = usdRate();
    return r
      ? reply.send({ currency: 'USD', rate: r.rate, time: Math.floor(Date.parse(r.time) / 1000) })
      : reply.code(404).send({ error: 'no USD rate set' });
  });
}
