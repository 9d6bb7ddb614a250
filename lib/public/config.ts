// What the front end needs at runtime (docs/api.md#directory), picked field by field from the configuration:
// never a spread of it, so a secret added to the config later cannot leak here by accident.
import 'server-only';
import packageJson from '../../package.json';
import type { Config } from '../config';
import { tokenMetadata } from '../chain/token-metadata';
import { expiresAfterDeadlineSeconds } from '../funding/escrow-expiry';
import { expiryRules } from '../funding/verify';
import { ALLOWED_TYPES, UPLOAD_LIMITS } from '../uploads';
import type { PublicConfig } from './schemas';

export async function publicConfig(cfg: Config): Promise<PublicConfig> {
  const token = cfg.chain.rewardToken;
  return {
    chainId: cfg.chainId,
    siwe: { domain: cfg.siweDomains[0] ?? '', domains: cfg.siweDomains, statement: cfg.siweStatement },
    contracts: {
      passport: cfg.chain.passport ?? null,
      escrow: cfg.chain.escrow ?? null,
      identityRegistry: cfg.chain.identityRegistry ?? null,
      reputationRegistry: cfg.chain.reputationRegistry ?? null,
      rewardToken: token ? { address: token, ...(await tokenMetadata(token)) } : null,
    },
    uploads: {
      maxFiles: UPLOAD_LIMITS.maxFiles,
      maxFileBytes: UPLOAD_LIMITS.maxFileBytes,
      allowedTypes: [...ALLOWED_TYPES],
    },
    nonceTtlSeconds: cfg.nonces.ttlSeconds,
    missions: {
      reviewWindowSeconds: cfg.missions.reviewWindowSeconds,
      maxContests: cfg.missions.maxContests,
      platformFeeBps: cfg.missions.feeBps,
      reclaimGraceSeconds: cfg.chain.reclaimGraceSeconds,
      expiresAfterDeadlineSeconds: expiresAfterDeadlineSeconds(expiryRules(cfg)),
      bountyExpiresAfterDeadlineSeconds: expiresAfterDeadlineSeconds(expiryRules(cfg), true),
      maxBountyEntries: cfg.missions.maxBountyEntries,
    },
    version: packageJson.version,
  };
}
