import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = path.join(ROOT, 'dist', 'main', 'headless.js');

let built = false;
/** Builds dist/ when sources are newer, once per test process. */
export function ensureBuilt(): void {
  if (built) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--if-stale', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr}`);
  built = true;
}

export interface Headless {
  url: string;
  port: number;
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** null: no --data-dir flag, so the host picks its default (under HOME). */
  dataDir: string | null;
  password?: string;
  passwordFile?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

function envFor(opts: StartOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  delete env.KEYSTEAD_PASSWORD;
  if (opts.password !== undefined) env.KEYSTEAD_PASSWORD = opts.password;
  return env;
}

function argsFor(opts: StartOptions): string[] {
  const args = [ENTRY, ...(opts.dataDir ? ['--data-dir', opts.dataDir] : []), '--port', '0', ...(opts.args ?? [])];
  if (opts.passwordFile) args.push('--password-file', opts.passwordFile);
  return args;
}

interface Spawned {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function spawnHeadless(opts: StartOptions): Spawned {
  ensureBuilt();
  const proc = spawn(process.execPath, argsFor(opts), { cwd: ROOT, env: envFor(opts), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code, signal) => {
      if (code === null) err += `\n[test helper] the process was ended by ${signal}`;
      resolve(code);
    }),
  );
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** Starts the real headless host (built) on a free loopback port and waits for its ready line. */
export async function startHeadless(opts: StartOptions): Promise<Headless> {
  const { proc, stdout, stderr, exited } = spawnHeadless(opts);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`headless did not start in 20 s\nstdout: ${stdout()}\nstderr: ${stderr()}`)), 20_000);
    proc.stdout!.on('data', () => {
      const m = /Keystead listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`headless exited with ${code} before it was ready\nstderr: ${stderr()}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    stdout,
    stderr,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
}

/** Runs the headless host expecting it to fail at start; resolves with its exit code and output. */
export async function runHeadlessExpectingExit(opts: StartOptions): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { proc, stdout, stderr, exited } = spawnHeadless(opts);
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, stdout: stdout(), stderr: stderr() };
}
