/**
 * The message of an error @bsv/sdk's HTTPWalletJSON throws: for answers other than WERR_INVALID_PARAMETER it
 * throws the JSON of the call with the wallet's `message` in it; anything else is its own message.
 */
export function messageOf(err: unknown): string {
  const text = (err as Error).message;
  try {
    return (JSON.parse(text) as { message: string }).message;
  } catch {
    return text;
  }
}
