import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { MAX_POST_BYTES, MAX_UPLOAD_BYTES } from '../../../shared/contracts/utilities.js';
import type { OpContext } from '../context.js';
import { currentFeePolicy } from '../payments/plan.js';
import { plannedPayment, recordValueMove, sendRecordedMove } from '../payments/value-flow.js';
import type { SigningAccount } from '../payments/keyring.js';
import { resolveWallet, type ResolvedWallet } from '../wallets/resolve.js';
import { bScript, dataScript, noteBytes } from './data-script.js';
import { fileFromDataUrl, fileFromHttpUrl, mediaTypeOf } from './fetch-file.js';
import type { UtilityServices } from './services.js';

type PostOutput = OutputOf<typeof OPERATIONS.post>;

interface Payer {
  wallet: ResolvedWallet;
  account: SigningAccount;
}

/** The wallet that pays a write, one the caller may use, and its keys (its password checked). */
async function payerOf(ctx: OpContext<UtilityServices>, input: { walletId?: string; walletPassword?: string }): Promise<Payer> {
  const wallet = await resolveWallet(ctx, input.walletId);
  return { wallet, account: await ctx.services.keyring.open(wallet, input.walletPassword) };
}

/**
 * Pays data outputs (0 satoshis each) from a wallet as a value move: coins reserved, the organisation's
 * policy asked, signed, recorded, broadcast and booked like any payment; the fee is the wallet's (or the
 * fee manager's). pay itself refuses a request paying 0 satoshis in total, which these are.
 */
async function writeOutputs(
  ctx: OpContext<UtilityServices>,
  input: { walletId?: string; walletPassword?: string; memo?: string | null },
  scripts: string[],
  memo: string,
  payer?: Payer,
): Promise<PostOutput> {
  const { services } = ctx;
  const { wallet, account } = payer ?? (await payerOf(ctx, input));
  const policy = await currentFeePolicy(services);
  const outputs = scripts.map((script) => ({ script, satoshis: 0 }));
  const recorded = await recordValueMove(services, {
    intent: { kind: 'payment', wallet, outputs, tokenId: null },
    account,
    memo: input.memo ?? memo,
    counterparty: null,
    delivery: null,
    policy,
    ...plannedPayment(services, wallet, account, outputs, policy),
  });
  const vout = recorded.submission.tx.outputs.findIndex((o) => o.lockingScript.toHex() === scripts[0]);
  const r = await sendRecordedMove(services, recorded);
  return {
    txid: r.txid,
    txIds: [r.txid],
    fee: r.fee,
    feePaidBy: r.feePaidBy,
    walletID: r.walletID,
    state: r.state,
    vout,
    bytes: scripts.reduce((s, x) => s + x.length / 2, 0),
  };
}

/** The data outputs of a post: one per `dataArray` item (each note a push), or one for `payload`. */
export function postScripts(input: Pick<ParsedInputOf<typeof OPERATIONS.post>, 'dataArray' | 'payload'>): string[] {
  const items: unknown[][] = input.dataArray?.map((d) => d.notes) ?? [];
  if (input.payload !== undefined) items.push([input.payload]);
  if (!items.length)
    throw new DomainError(
      'VALIDATION_FAILED',
      'Send what to write: {"dataArray": [{"notes": ["text", {"or": "JSON"}]}]} or {"payload": "text or JSON"}.',
    );
  const pushes = items.map((notes) => notes.map(noteBytes));
  const size = pushes.flat().reduce((s, b) => s + b.length, 0);
  if (size > MAX_POST_BYTES)
    throw new DomainError('PAYLOAD_TOO_LARGE', `The data is ${size} bytes; post writes ${MAX_POST_BYTES} at most (use upload for a file).`);
  return pushes.map(dataScript);
}

/** POST /v1/post: text or JSON on chain, in OP_FALSE OP_RETURN outputs. */
export function post(ctx: OpContext<UtilityServices>, input: ParsedInputOf<typeof OPERATIONS.post>): Promise<PostOutput> {
  return writeOutputs(ctx, input, postScripts(input), 'Data posted on chain');
}

/**
 * The file an upload writes: given inline (base64), or fetched from its `fileUrl` (data:, or http(s) on a public host,
 * through the guarded client: fetch-file.ts).
 */
export async function uploadFile(
  input: Pick<ParsedInputOf<typeof OPERATIONS.upload>, 'file' | 'fileUrl' | 'fileName' | 'contentType'>,
): Promise<{ bytes: Buffer; contentType: string; fileName: string | null }> {
  let fetched: { bytes: Buffer; contentType: string | null };
  if (input.file !== undefined) fetched = { bytes: Buffer.from(input.file.replace(/\s+/g, ''), 'base64'), contentType: null };
  else if (input.fileUrl && /^data:/i.test(input.fileUrl)) fetched = fileFromDataUrl(input.fileUrl, MAX_UPLOAD_BYTES);
  else if (input.fileUrl) fetched = await fileFromHttpUrl(input.fileUrl, MAX_UPLOAD_BYTES);
  else
    throw new DomainError(
      'VALIDATION_FAILED',
      'Send the file: {"fileUrl": "data:… or https://…", "fileName": "…"} or {"file": "<base64>", "contentType": "image/png"}.',
    );
  if (fetched.bytes.length === 0) throw new DomainError('VALIDATION_FAILED', 'The file is empty.');
  if (fetched.bytes.length > MAX_UPLOAD_BYTES)
    throw new DomainError('PAYLOAD_TOO_LARGE', `The file is ${fetched.bytes.length} bytes; upload writes ${MAX_UPLOAD_BYTES} at most.`);
  const fileName = input.fileName || null;
  const contentType = input.contentType ?? fetched.contentType ?? mediaTypeOf(fileName) ?? 'application/octet-stream';
  return { bytes: fetched.bytes, contentType, fileName };
}

/** POST /v1/upload: a file on chain in the B:// layout; answers its txid and its b:// URI. */
export async function upload(
  ctx: OpContext<UtilityServices>,
  input: ParsedInputOf<typeof OPERATIONS.upload>,
): Promise<OutputOf<typeof OPERATIONS.upload>> {
  // A URL is fetched only for a caller with a wallet to pay from (its password checked), never before.
  const payer = await payerOf(ctx, input);
  const file = await uploadFile(input);
  const r = await writeOutputs(
    ctx,
    input,
    [bScript(file.bytes, file.contentType, file.fileName)],
    `File uploaded on chain${file.fileName ? `: ${file.fileName}` : ''}`,
    payer,
  );
  return { ...r, uri: `b://${r.txid}`, contentType: file.contentType, fileName: file.fileName };
}
