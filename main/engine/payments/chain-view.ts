/**
 * What the chain says of a transaction. `seen`: the provider has it; `nodesAccepted`: a node of the network
 * took it (or a block proves it), where `seen` alone may be ARC having only stored it, which anyone can bring
 * about with any transaction.
 */
export type ChainView = { seen: true; height: number | null; nodesAccepted: boolean } | { seen: false; rejected: boolean };
