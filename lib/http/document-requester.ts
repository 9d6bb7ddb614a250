// Who asks us to fetch a Client ID Metadata Document (docs/api.md#client-id-metadata-documents): the
// page and the consent POST both build it here, so each fetch passes the same two limits — the
// browser's IP first (a refused IP spends nothing of the shared budget), then everyone together.
import type { Config } from '../config';
import type { Kv } from '../kv';
import type { Requester } from '../oauth/client-metadata-document';
import { EVERYONE, consume } from '../limits/rate-limit';

export function documentRequester(cfg: Config, kv: Kv, ip: string): Requester {
  return {
    cfg,
    kv,
    admitFetch: (who) =>
      who === 'ip' ? consume(kv, cfg, 'clientDocument', ip) : consume(kv, cfg, 'clientDocumentGlobal', EVERYONE),
  };
}
