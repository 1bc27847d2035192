/**
 * The largest payments this paymail host takes from a sender, in bytes of the transaction (hex doubles
 * them on the wire). The public listener sizes its receive routes' bodies from these, so a stranger's
 * request is refused by its length before it is read into memory, and Keystead as a sender never builds
 * a BEEF another Keystead would refuse.
 */

/** A payment as a raw transaction: 1 MiB holds over 6,000 signed P2PKH inputs, more than any payment needs. */
export const MAX_RECEIVED_TX_BYTES = 1024 * 1024;

/** A payment as BEEF: the transaction with the ancestors and merkle paths that prove it. */
export const MAX_RECEIVED_BEEF_BYTES = 2 * 1024 * 1024;

/** Room in a receive body for everything but the transaction: the reference and the sender's metadata. */
export const RECEIVE_ENVELOPE_BYTES = 16 * 1024;
