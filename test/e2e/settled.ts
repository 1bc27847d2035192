import { expect, type Page, type Request } from '@playwright/test';

/** The page's RPC calls (POST /rpc/…) as Playwright sees them: the paths asked for, and how many await their answer. */
export interface RpcWatch {
  readonly asked: readonly string[];
  readonly inFlight: number;
}

/** Starts watching the page's RPC calls; call it before the page makes any that matter. */
export function watchRpc(page: Page): RpcWatch {
  const asked: string[] = [];
  let inFlight = 0;
  const path = (r: Request) => new URL(r.url()).pathname;
  const isRpc = (r: Request) => path(r).startsWith('/rpc/');
  page.on('request', (r) => {
    if (!isRpc(r)) return;
    asked.push(path(r));
    inFlight += 1;
  });
  const answered = (r: Request) => {
    if (isRpc(r)) inFlight -= 1;
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  return {
    get asked() {
      return asked;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

/**
 * Waits until the page holds still: no RPC call in flight, none begun, and the same DOM two animation frames
 * apart. Checks made then see a view with its data shown, not a frame of it loading; no fixed pause guesses
 * how long that takes. On a timeout the message shows the last look: the calls begun during it, and so on.
 */
export async function settled(page: Page, rpc: RpcWatch, what: string): Promise<void> {
  const still = { inFlight: 0, begun: [], domChanged: false };
  await expect
    .poll(
      async () => {
        const asked = rpc.asked.length;
        const domChanged = await page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const before = document.body.innerHTML;
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.body.innerHTML !== before)));
            }),
        );
        return { inFlight: rpc.inFlight, begun: rpc.asked.slice(asked), domChanged };
      },
      { message: `${what} settles (no RPC call in flight or begun, the DOM unchanged)`, intervals: [10, 25, 50, 100] },
    )
    .toEqual(still);
}
