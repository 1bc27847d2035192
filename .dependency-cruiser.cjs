// The design's dependency direction, enforced (`npm run lint`). Paths are matched anywhere in the file
// path, so the deliberately bad fixtures under test/fixtures/layering/ are judged by the same rules.
//   renderer → shared ← preload;  main/server → main/engine → main/chain, main/store;
//   main/contracts stands alone; `electron` only in main/electron/ (and the preload); nothing upward.
const DIR = (name) => `(^|/)${name}/`;
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    forbid('shared-stands-alone', 'shared/ is what main, preload and renderer share: it imports none of them', DIR('shared'), `${DIR('main')}|${DIR('renderer')}|${DIR('preload')}`),
    forbid('renderer-only-shared', 'the renderer reaches the engine over IPC or HTTP, never by import', DIR('renderer'), `${DIR('main')}|${DIR('preload')}`),
    forbid('preload-only-shared', 'the preload is the bridge: it imports shared contracts only', DIR('preload'), `${DIR('main')}|${DIR('renderer')}`),
    forbid('contracts-stand-alone', 'the offline toolchain imports nothing from the rest of main/', DIR('main/contracts'), `${DIR('main')}(?!contracts/)`),
    forbid('log-stands-alone', 'the logger is below every layer', DIR('main/log'), `${DIR('main')}(?!log/)`),
    forbid('store-below-engine', 'the store knows nothing of what uses it', DIR('main/store'), `${DIR('main/(engine|server|host|electron|chain)')}`),
    forbid('chain-below-engine', 'chain providers know nothing of the engine, the server or the hosts', DIR('main/chain'), `${DIR('main/(engine|server|host|electron)')}`),
    forbid('engine-below-server', 'the engine is plain Node and transport-free', DIR('main/engine'), `${DIR('main/(server|host|electron)')}`),
    forbid('engine-uses-chain-capabilities', 'the engine depends on ChainProvider capabilities, never on a concrete provider', DIR('main/engine'), `${DIR('main/chain/(local|network)')}`),
    forbid('server-below-hosts', 'the server is started by the hosts, not the other way round', DIR('main/server'), `${DIR('main/(host|electron)')}`),
    forbid('host-below-electron', 'the hosts run without Electron', DIR('main/host'), DIR('main/electron')),
    forbid('context-knows-no-capability', 'the engine context is what every capability builds on; it imports none of them', '(^|/)main/engine/context\\.ts$', `${DIR('main/engine')}[^/]+/`),
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
