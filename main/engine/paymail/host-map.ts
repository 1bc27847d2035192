import type { SettingsRepo } from '../../store/repos/settings.js';

export interface HostEntry {
  domain: string;
  url: string;
  source: 'config' | 'admin' | 'self';
}

/**
 * Where paymail domains are looked up before DNS: this Keystead's own domain (its own server),
 * entries from the configuration (--paymail-hosts), and entries an admin saved (kept in the database).
 */
export class PaymailHostMap {
  private self: { domain: string; url: string } | null = null;

  constructor(
    private readonly settings: SettingsRepo,
    private readonly configured: Readonly<Record<string, string>>,
  ) {}

  setSelf(domain: string, url: string): void {
    this.self = { domain: domain.toLowerCase(), url };
  }

  private saved(): Record<string, string> {
    return JSON.parse(this.settings.get('paymail-hosts') ?? '{}') as Record<string, string>;
  }

  entries(): HostEntry[] {
    const out = new Map<string, HostEntry>();
    for (const [domain, url] of Object.entries(this.configured)) out.set(domain, { domain, url, source: 'config' });
    for (const [domain, url] of Object.entries(this.saved())) out.set(domain, { domain, url, source: 'admin' });
    if (this.self) out.set(this.self.domain, { ...this.self, source: 'self' });
    return [...out.values()].sort((a, b) => a.domain.localeCompare(b.domain));
  }

  map(): Map<string, string> {
    return new Map(this.entries().map((e) => [e.domain, e.url]));
  }

  save(domain: string, url: string | null): void {
    const saved = this.saved();
    if (url === null) delete saved[domain];
    else saved[domain] = url.replace(/\/+$/, '');
    this.settings.set('paymail-hosts', JSON.stringify(saved));
  }
}
