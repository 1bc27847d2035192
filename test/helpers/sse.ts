import http from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  /** The body when the server refused the stream (an error envelope). */
  body: any;
  events: SseEvent[];
  /** Resolves with the first event (already received or still to come) that `match` accepts. */
  next(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** Whether the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A Server-Sent Events client over plain HTTP: parses frames as a browser's EventSource would. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const waiters: { match: (e: SseEvent) => boolean; done: (e: SseEvent) => void }[] = [];
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        body: null,
        events,
        ended,
        next(match, ms = 15_000) {
          const found = events.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((done, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no matching event within ${ms} ms; got ${events.map((e) => e.event).join(', ')}`)),
              ms,
            );
            waiters.push({ match, done: (e) => (clearTimeout(timer), done(e)) });
          });
        },
        close: () => req.destroy(),
      };
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      if (stream.status !== 200) {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ ...stream, body: JSON.parse(text) }));
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = { id: null as string | null, event: 'message', data: [] as string[] };
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            const at = line.indexOf(':');
            const [name, value] = at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1).replace(/^ /, '')];
            if (name === 'id') fields.id = value;
            else if (name === 'event') fields.event = value;
            else if (name === 'data') fields.data.push(value);
          }
          if (!fields.data.length) continue;
          const e: SseEvent = { id: fields.id, event: fields.event, data: JSON.parse(fields.data.join('\n')) };
          events.push(e);
          for (const w of [...waiters]) {
            if (!w.match(e)) continue;
            waiters.splice(waiters.indexOf(w), 1);
            w.done(e);
          }
        }
      });
      resolve(stream);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}
