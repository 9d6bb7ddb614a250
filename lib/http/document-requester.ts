// Who asks us to fetch a Client ID Metadata Document (docs/api.md#client-id-metadata-documents): the
// page and the consent POST both build it here, so each fetch passes the same limits — the browser's
// source first (its IP, IPv6 by /48: a minute's and an hour's share; a refused source spends nothing of
// the shared budget), then everyone together.
import type { Config } from '../config';
import type { Kv } from '../kv';
import type { Requester } from '../oauth/client-metadata-document';
import { EVERYONE, consume } from '../limits/rate-limit';
import { sourceOf } from './client-ip';

export function documentRequester(cfg: Config, kv: Kv, ip: string): Requester {
  return {
    cfg,
    kv,
    admitFetch: async (who) => {
      if (who !== 'ip') return consume(kv, cfg, 'clientDocumentGlobal', EVERYONE);
      await consume(kv, cfg, 'clientDocument', sourceOf(ip));
      return consume(kv, cfg, 'clientDocumentHourly', sourceOf(ip));
    },
  };
}
