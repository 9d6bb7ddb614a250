// What global-setup.ts started, as the tests see it.
import type { Address } from 'viem';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e suite through npm run test:e2e`);
  return value;
}

export const e2e = {
  get baseUrl() {
    return required('E2E_BASE_URL');
  },
  get rpcUrl() {
    return required('E2E_RPC_URL');
  },
  get chainId() {
    return Number(required('E2E_CHAIN_ID'));
  },
  get escrow() {
    return required('E2E_ESCROW') as Address;
  },
  get rewardToken() {
    return required('E2E_REWARD_TOKEN') as Address;
  },
  /** The server's ADMIN_TOKEN (docs/api.md#operator-secrets). */
  get adminToken() {
    return required('E2E_ADMIN_TOKEN');
  },
};
