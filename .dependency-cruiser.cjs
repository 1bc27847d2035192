// The design's dependency direction, enforced (`npm run lint`). Paths are matched anywhere in the file
// path, so the deliberately bad fixtures under test/fixtures/layering/ are judged by the same rules.
//   renderer → shared ← preload;  main/server → main/engine → main/chain, main/store;
//   main/contracts stands alone; main/log and main/crypto are below every layer; `electron` only in
//   main/electron/ (and the preload); nothing upward.
const DIR = (name) => `(^|/)${name}/`;
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

// The capability folders of main/engine, low to high. A capability may import capabilities of lower layers
// only: none of a higher layer, nor a peer of its own (peers stay independent of each other).
//   audit, auth, contracts, org, payees, rates, token-templates: the ground (their own tables; the token scripts;
//     payees: the payee book, which the policies ask whether a destination is in it);
//   users, wallets: people and their wallets, over auth (wallets ask the books to scan through an
//     interface of their own, which sync implements);
//   policies: the payment policy and approvals, over the payee book and the wallets (payments call its
//     check through a function they are given, never by import);
//   sync: the books kept in step with the chain, over the wallets' addresses;
//   paymail: the paymail client, and the host, which books what it receives;
//   payments: paying, which delivers by paymail;
//   invoices: payment requests, paid through payments and matched as the books take in payments;
//   ordinals: 1Sat Ordinals (inscriptions, BSV-21), booked beside the coins and sent as payments; lookup lists them;
//   tokens: issuing, sending and redeeming tokens, which are payments;
//   sweep, utilities, apps: sweeping a foreign key into a wallet; the public service's utilities (data on chain, decoding, metrics);
//     BRC-100 apps, whose actions are payments and may move tokens; swaps: token offers and their takers, which
//     move tokens and coins in one transaction;
//   chain, events, fees: the network view, live events and the fee manager, over all of them.
const ENGINE_LAYERS = [
  ['audit', 'auth', 'contracts', 'org', 'payees', 'rates', 'token-templates'],
  ['users', 'wallets'],
  ['policies'],
  ['sync'],
  ['paymail'],
  ['payments'],
  ['invoices'],
  ['ordinals'],
  ['tokens'],
  ['sweep', 'utilities', 'apps', 'swaps'],
  ['chain', 'events', 'fees'],
];
const ENGINE_CAPABILITIES = ENGINE_LAYERS.flat();
const engineLayerRules = ENGINE_LAYERS.flatMap((layer, i) =>
  layer
    .map((cap) => ({ cap, above: [...layer.filter((peer) => peer !== cap), ...ENGINE_LAYERS.slice(i + 1).flat()] }))
    .filter(({ above }) => above.length > 0)
    .map(({ cap, above }) =>
      forbid(
        `engine-layer-${cap}`,
        `main/engine/${cap}/ imports no capability above it or beside it (${above.join(', ')})`,
        DIR(`main/engine/${cap}`),
        `${DIR('main/engine')}(${above.join('|')})/`,
      ),
    ),
);

module.exports = {
  forbidden: [
    forbid(
      'shared-stands-alone',
      'shared/ is what main, preload and renderer share: it imports none of them',
      DIR('shared'),
      `${DIR('main')}|${DIR('renderer')}|${DIR('preload')}`,
    ),
    forbid(
      'renderer-only-shared',
      'the renderer reaches the engine over IPC or HTTP, never by import',
      DIR('renderer'),
      `${DIR('main')}|${DIR('preload')}`,
    ),
    forbid(
      'preload-only-shared',
      'the preload is the bridge: it imports shared contracts only',
      DIR('preload'),
      `${DIR('main')}|${DIR('renderer')}`,
    ),
    forbid(
      'contracts-stand-alone',
      'the offline toolchain imports nothing from the rest of main/',
      DIR('main/contracts'),
      `${DIR('main')}(?!contracts/)`,
    ),
    forbid('log-stands-alone', 'the logger is below every layer', DIR('main/log'), `${DIR('main')}(?!log/)`),
    forbid('crypto-stands-alone', 'the curve arithmetic is below every layer', DIR('main/crypto'), `${DIR('main')}(?!crypto/)`),
    forbid(
      'store-below-engine',
      'the store knows nothing of what uses it',
      DIR('main/store'),
      `${DIR('main/(engine|server|host|electron|chain)')}`,
    ),
    forbid(
      'chain-below-engine',
      'chain providers know nothing of the engine, the server or the hosts',
      DIR('main/chain'),
      `${DIR('main/(engine|server|host|electron)')}`,
    ),
    forbid(
      'engine-below-server',
      'the engine is plain Node and transport-free',
      DIR('main/engine'),
      `${DIR('main/(server|host|electron)')}`,
    ),
    forbid(
      'engine-uses-chain-capabilities',
      'the engine depends on ChainProvider capabilities, never on a concrete provider',
      DIR('main/engine'),
      `${DIR('main/chain/(local|network)')}`,
    ),
    forbid(
      'server-below-hosts',
      'the server is started by the hosts, not the other way round',
      DIR('main/server'),
      `${DIR('main/(host|electron)')}`,
    ),
    forbid('host-below-electron', 'the hosts run without Electron', DIR('main/host'), DIR('main/electron')),
    forbid(
      'context-knows-no-capability',
      'the engine context is what every capability builds on; it imports none of them',
      '(^|/)main/engine/context\\.ts$',
      `${DIR('main/engine')}[^/]+/`,
    ),
    ...engineLayerRules,
    forbid(
      'capabilities-below-the-engine-root',
      'a capability builds on the context and the operation helpers; the engine, its wiring and its tables import the capabilities',
      `${DIR('main/engine')}[^/]+/`,
      '(^|/)main/engine/(engine|build-services|execute|operations|services)\\.ts$',
    ),
    {
      name: 'engine-capability-in-the-order',
      comment: 'a capability folder that imports another must be placed in ENGINE_LAYERS above, so its direction is declared',
      severity: 'error',
      from: { path: `${DIR('main/engine')}[^/]+/`, pathNot: `${DIR('main/engine')}(${ENGINE_CAPABILITIES.join('|')})/` },
      to: { path: `${DIR('main/engine')}(${ENGINE_CAPABILITIES.join('|')})/` },
    },
    {
      name: 'electron-only-in-main-electron',
      comment: 'only main/electron/ (and the preload bridge) may import electron',
      severity: 'error',
      from: { pathNot: `${DIR('main/electron')}|${DIR('preload')}` },
      to: { path: '^electron$|node_modules/electron/' },
    },
    { name: 'no-circular', comment: 'modules import in one direction', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|test/output|test/fixtures/scrypt|test/fixtures/scrypt-ts|test/fixtures/scrypt-errors)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
