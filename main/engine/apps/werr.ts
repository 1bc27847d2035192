/**
 * BRC-100 errors as the reference wallets answer them (@bsv/sdk's WalletError / WERR_*): HTTPWalletJSON reads a
 * 400 with `isError` and a `code` (6: WERR_INVALID_PARAMETER, with `parameter`), and any other answer's
 * `message`. The listener (main/server/brc100-server.ts) turns these into that shape.
 */
export class WalletErr extends Error {
  readonly isError = true;
  constructor(
    override readonly name: string,
    readonly code: number,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }

  /** The body the listener answers (HTTP 400). */
  toJSON(): Record<string, unknown> {
    return {
      isError: true,
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.parameter !== undefined ? { parameter: this.parameter } : {}),
    };
  }
}

/** The reference's wording: "The <parameter> parameter must be <mustBe>". */
export const invalidParameter = (parameter: string, mustBe: string) =>
  new WalletErr('WERR_INVALID_PARAMETER', 6, `The ${parameter} parameter must be ${mustBe}`, parameter);

export const unauthorized = (message: string) => new WalletErr('WERR_UNAUTHORIZED', 2, message);

export const notImplemented = (method: string) =>
  new WalletErr(
    'WERR_NOT_IMPLEMENTED',
    3,
    `${method} is not supported yet by this Keystead (BRC-100: keys, linkage, crypto and chain only).`,
  );

export const invalidOperation = (message: string) => new WalletErr('WERR_INVALID_OPERATION', 4, message);
