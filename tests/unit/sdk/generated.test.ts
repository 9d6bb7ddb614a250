// The SDK's generated sources (sdk/src/generated/) must be what scripts/sdk-generate.ts makes from
// the OpenAPI document the server serves today: a schema change without regenerating fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GENERATE_COMMAND, generateSdkFiles } from '../../../scripts/sdk-generate';

describe('sdk generated sources', () => {
  test('default: the committed files match the OpenAPI document', async () => {
    for (const file of await generateSdkFiles()) {
      const committed = readFileSync(file.path, 'utf8');
      expect(committed === file.text, `${file.name} is stale: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(
        true,
      );
    }
  });

  test('behavior: the generated types carry every path of the document', async () => {
    const [document, types] = await generateSdkFiles();
    for (const path of [
      '/api/missions',
      '/api/missions/{id}/submit',
      '/api/agents/me/claim',
      '/api/webhooks/{id}/deliveries',
    ]) {
      expect(document!.text).toContain(`"${path}"`);
      expect(types!.text).toContain(`"${path}": {`);
    }
  });
});
