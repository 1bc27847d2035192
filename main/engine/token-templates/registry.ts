import { holderAddressOf, p2pkhAddressOf, signedHolderOf } from '../../chain/script.js';
import { KST20, KST789, KST_RELEASES } from './kst.js';
import { checkStasTemplate, StasTemplate } from './stas.js';
import { STAS_PROTOCOLS, type StasProtocol, type TokenProtocol, type TokenScript, type TokenTemplate } from './template.js';

export interface InstalledTemplate {
  protocolId: string;
  template: string;
}

/**
 * Every template Keystead can use now: its own (KST-20, KST-789, always) and the licensed STAS templates
 * the organisation installed. Recognising a script tries each; the installed list is read when it changes.
 */
export class TemplateRegistry {
  private stas = new Map<StasProtocol, StasTemplate>();

  constructor(private readonly installed: () => InstalledTemplate[]) {
    this.reload();
  }

  /** Re-reads the installed templates (after one is installed or removed). */
  reload(): void {
    const next = new Map<StasProtocol, StasTemplate>();
    for (const t of this.installed()) {
      // A template installed before its structure was checked, that fails the check now, is not used:
      // it could make look-alike scripts count as tokens. The list still shows it, so it can be replaced.
      if ((STAS_PROTOCOLS as readonly string[]).includes(t.protocolId) && checkStasTemplate(t.template) === null)
        next.set(t.protocolId as StasProtocol, new StasTemplate(t.protocolId as StasProtocol, t.template));
    }
    this.stas = next;
  }

  get(protocol: TokenProtocol): TokenTemplate | null {
    if (protocol === 'KST-20') return KST20;
    if (protocol === 'KST-789') return KST789;
    return this.stas.get(protocol) ?? null;
  }

  /**
   * The template to move existing token outputs with: the one that wrote them (an earlier release of the
   * open template keeps its own code), or the protocol's current one. Outputs written by different
   * releases cannot be spent together: each release's script only accepts its own code.
   */
  forOutputs(protocol: TokenProtocol, scripts: string[]): TokenTemplate | null {
    const current = this.get(protocol);
    if (!current || !scripts.length) return current;
    const writers = new Set(scripts.map((s) => [...KST_RELEASES, current].find((t) => t.protocol === protocol && t.parse(s))));
    if (writers.size !== 1 || writers.has(undefined)) return null;
    return [...writers][0]!;
  }

  installedProtocols(): StasProtocol[] {
    return [...this.stas.keys()];
  }

  /**
   * The address whose key alone spends an output: a plain P2PKH's, one followed only by data (signedHolderOf),
   * or a recognised token output's owner. Null for any other script, whatever address it starts with: a P2PKH
   * followed by more code (`… OP_DROP OP_TRUE`) may be spendable by anyone, so it is nobody's, and paying it
   * leaves the wallet.
   */
  holder(script: string): string | null {
    return p2pkhAddressOf(script) ?? signedHolderOf(script) ?? (this.recognise(script) ? holderAddressOf(script) : null);
  }

  /** The template a locking script is written in, and what it says; null for anything that is not a token. */
  recognise(script: string): { template: TokenTemplate; token: TokenScript } | null {
    if (!script.startsWith('76a914') || script.length <= 50) return null;
    for (const template of [...KST_RELEASES, ...this.stas.values()]) {
      const token = template.parse(script);
      if (token) return { template, token };
    }
    return null;
  }
}
