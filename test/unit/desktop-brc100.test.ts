import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { parseHostArgs } from '../../main/host/config.js';
import { DESKTOP_BRC100_LISTEN, desktopEnv, startDesktop } from '../../main/host/desktop-brc100.js';
import { Vault } from '../../main/host/vault.js';
import { createLogger } from '../../main/log/logger.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string; brc100Listen?: string }[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

/** A port some other program holds on 127.0.0.1 (as another BRC-100 wallet would hold 3321). */
async function takenPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    release: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const listening = async (vault: Vault, session: { authToken: string; serviceId: string }) => {
  const r = await vault.execute('listApps', {}, { authToken: session.authToken, serviceId: session.serviceId }, 'ipc:1');
  assert.ok(r.ok, JSON.stringify(r));
  return (r.output as { listening: string | null }).listening;
};

describe('desktop host: the BRC-100 listener', () => {
  it('is on by default in the desktop app at 127.0.0.1:3321, can be moved or turned off, and stays off headless', () => {
    const parse = (env: NodeJS.ProcessEnv) => parseHostArgs([], { KEYSTEAD_DATA_DIR: tempDir(), ...env })!.brc100Listen;
    assert.equal(DESKTOP_BRC100_LISTEN, '127.0.0.1:3321');
    assert.deepEqual(parse(desktopEnv({})), { host: '127.0.0.1', port: 3321 });
    assert.deepEqual(parse(desktopEnv({ KEYSTEAD_BRC100_LISTEN: ' ' })), { host: '127.0.0.1', port: 3321 });
    assert.deepEqual(parse(desktopEnv({ KEYSTEAD_BRC100_LISTEN: '127.0.0.1:4000' })), { host: '127.0.0.1', port: 4000 });
    for (const off of ['off', 'OFF', 'no', 'false', '0', 'none'])
      assert.equal(parse(desktopEnv({ KEYSTEAD_BRC100_LISTEN: off })), undefined, off);
    assert.equal(parse({}), undefined, 'headless: off unless given');
    assert.throws(() => parse(desktopEnv({ KEYSTEAD_BRC100_LISTEN: '0.0.0.0:3321' })), /not a loopback address/);
    const env = { KEYSTEAD_BRC100_LISTEN: 'off', OTHER: 'kept' };
    assert.deepEqual(desktopEnv(env), { OTHER: 'kept' });
    assert.equal(env.KEYSTEAD_BRC100_LISTEN, 'off', 'the given environment is not changed');
  });

  it('starts the app without the listener, and says so, when its port is taken', async () => {
    const taken = await takenPort();
    const { logger, lines } = capturingLogger();
    const vault = new Vault({
      dataDir: tempDir(),
      port: 0,
      network: 'local',
      version: 'test',
      sessionTtlSeconds: 3600,
      brc100Listen: { host: '127.0.0.1', port: taken.port },
      logger,
    });
    try {
      const r = await vault.setup(ADMIN);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(vault.status().unlocked, true);
      assert.equal((await fetch(`${vault.status().apiUrl}/health`)).status, 200, 'the local API runs');
      assert.equal(await listening(vault, r.output), null, 'no listener: the Apps view says so');
      const warned = lines.find((l) => l.level === 40 && /BRC-100 listener for apps did not start/.test(l.msg));
      assert.ok(warned, JSON.stringify(lines));
      assert.equal(warned.brc100Listen, `127.0.0.1:${taken.port}`);
      assert.match(warned.msg, /in use/);
    } finally {
      await vault.close();
      await taken.release();
    }
  });

  it('listens when the port is free', async () => {
    const free = await takenPort();
    await free.release();
    const { logger, lines } = capturingLogger();
    const vault = new Vault({
      dataDir: tempDir(),
      port: 0,
      network: 'local',
      version: 'test',
      sessionTtlSeconds: 3600,
      brc100Listen: { host: '127.0.0.1', port: free.port },
      logger,
    });
    try {
      const r = await vault.setup(ADMIN);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(await listening(vault, r.output), `127.0.0.1:${free.port}`);
      assert.ok(!lines.some((l) => l.level >= 40), JSON.stringify(lines));
    } finally {
      await vault.close();
    }
  });

  it('moves the local API to a free port when its own is taken, and passes other failures on', async () => {
    const tries: { port: number; brc100Listen?: { host: string; port: number } }[] = [];
    const busy = (port: number) => Object.assign(new Error(`listen EADDRINUSE 127.0.0.1:${port}`), { code: 'EADDRINUSE', port });
    const { logger } = capturingLogger();
    const brc100Listen = { host: '127.0.0.1', port: 3321 };
    const started = await startDesktop(
      async (o: { port: number; brc100Listen?: { host: string; port: number } }) => {
        tries.push(o);
        if (o.port === 7480) throw busy(7480);
        if (o.brc100Listen) throw busy(3321);
        return 'started';
      },
      { port: 7480, brc100Listen },
      logger,
    );
    assert.equal(started, 'started');
    assert.deepEqual(tries, [
      { port: 7480, brc100Listen },
      { port: 0, brc100Listen },
      { port: 0, brc100Listen: undefined },
    ]);
    await assert.rejects(
      startDesktop(
        async () => {
          throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        },
        { port: 0, brc100Listen },
        logger,
      ),
      /EACCES/,
    );
    await assert.rejects(
      startDesktop(
        async () => {
          throw busy(9999);
        },
        { port: 0 },
        logger,
      ),
      /EADDRINUSE/,
      'a clash on a port it did not ask for is not guessed at',
    );
  });
});
