// Machine checks of criteria (docs/api.md#checked-criteria), called as mission creation and submit call
// them: each type passing and failing with what it found; schemas refused at creation; a catastrophic
// pattern stopped at the budget; httpGet against an https server on loopback, trusted through
// WEBHOOK_TEST_CA, which config honours only with WEBHOOK_ALLOW_PRIVATE.
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { config } from '@/lib/config';
import type { CriterionCheck } from '@/lib/missions/criteria';
import { checkProblems, type DeliveredFile, MAX_JSON_BYTES, runChecks } from '@/lib/missions/criterion-checks';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { type DocumentServer, startDocumentServer } from '../support/metadata-document-server';

useTestEnvironment({ ...BOOKKEEPING, WEBHOOK_ALLOW_PRIVATE: '1' });

let server: DocumentServer;
beforeAll(async () => {
  server = await startDocumentServer();
  setEnv({ WEBHOOK_TEST_CA: server.ca });
});
afterAll(() => server.close());

const NOW = new Date('2026-12-01T10:00:00.000Z');

/** A delivered file whose bytes are `content`; `reads` counts how often they were asked for. */
function delivered(filename: string, content: string | Buffer, contentType = 'application/json') {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const file = {
    filename,
    contentType,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    reads: 0,
    read: async () => {
      file.reads += 1;
      return bytes;
    },
  };
  return file satisfies DeliveredFile;
}

/** The one result of a single check run against `files`. */
async function runOne(check: CriterionCheck, files: DeliveredFile[] = []) {
  const [result, ...rest] = await runChecks(config(), [check], files, NOW);
  expect(rest).toEqual([]);
  return result!;
}

describe('runChecks', () => {
  test('behavior: one result per checked criterion, numbered from 1, in order, checked now', async () => {
    const file = delivered('a.txt', 'hello', 'text/plain');
    const results = await runChecks(
      config(),
      [null, { type: 'file', name: 'a.txt' }, null, { type: 'sha256', file: 'a.txt', digest: '0'.repeat(64) }],
      [file],
      NOW,
    );
    expect(results).toEqual([
      { criterion: 2, passed: true, detail: expect.any(String), checkedAt: '2026-12-01T10:00:00.000Z' },
      { criterion: 4, passed: false, detail: expect.any(String), checkedAt: '2026-12-01T10:00:00.000Z' },
    ]);
    expect(await runChecks(config(), [null, null], [file], NOW)).toEqual([]);
  });

  test('error: a file that cannot be read fails its criterion, and the others are still checked', async () => {
    const broken: DeliveredFile = {
      ...delivered('result.json', '{}'),
      read: () => Promise.reject(new Error('storage unavailable')),
    };
    const results = await runChecks(
      config(),
      [
        { type: 'jsonSchema', file: 'result.json', schema: true },
        { type: 'file', name: 'result.json' },
      ],
      [broken],
      NOW,
    );
    expect(results.map(({ passed, detail }) => ({ passed, detail }))).toEqual([
      { passed: false, detail: 'could not be checked: storage unavailable' },
      { passed: true, detail: 'found 1 deliverable named result.json (1 needed)' },
    ]);
  });
});

describe('file checks', () => {
  const report = delivered('report.pdf', Buffer.alloc(2000), 'application/pdf');
  const notes = delivered('notes.txt', 'notes', 'text/plain');

  test('behavior: a file of that name, content type (any case) and size passes', async () => {
    const result = await runOne({ type: 'file', name: 'report.pdf', mime: 'Application/PDF', maxBytes: 2000 }, [
      notes,
      report,
    ]);
    expect(result).toMatchObject({
      passed: true,
      detail: 'found 1 deliverable named report.pdf of type application/pdf of at most 2000 bytes (1 needed)',
    });
  });

  test('error: each condition that leaves no file says what it found', async () => {
    expect(await runOne({ type: 'file', name: 'report.pdf' }, [notes])).toMatchObject({
      passed: false,
      detail: 'no deliverable named report.pdf',
    });
    expect(await runOne({ type: 'file', name: 'report.pdf', mime: 'image/png' }, [report])).toMatchObject({
      passed: false,
      detail: 'report.pdf is application/pdf, not image/png',
    });
    expect(await runOne({ type: 'file', name: 'report.pdf', maxBytes: 1999 }, [report])).toMatchObject({
      passed: false,
      detail: 'report.pdf over 1999 bytes',
    });
    expect(await runOne({ type: 'file' }, [])).toMatchObject({ passed: false, detail: 'no deliverables' });
  });

  test('behavior: minCount counts the matching files', async () => {
    const check: CriterionCheck = { type: 'file', mime: 'text/plain', minCount: 2 };
    expect(await runOne(check, [notes, report])).toMatchObject({
      passed: false,
      detail: 'found 1 deliverable of type text/plain, 2 needed',
    });
    expect(await runOne(check, [notes, report, delivered('more.txt', 'more', 'text/plain')])).toMatchObject({
      passed: true,
      detail: 'found 2 deliverables of type text/plain (2 needed)',
    });
  });
});

describe('sha256 checks', () => {
  const file = delivered('data.bin', 'exact bytes', 'application/octet-stream');

  test('behavior: the deliverable with that digest passes', async () => {
    expect(await runOne({ type: 'sha256', file: 'data.bin', digest: file.sha256 }, [file])).toMatchObject({
      passed: true,
      detail: 'data.bin has the expected SHA-256',
    });
  });

  test('error: another digest, a missing file or two of that name fail', async () => {
    const digest = 'f'.repeat(64);
    expect(await runOne({ type: 'sha256', file: 'data.bin', digest }, [file])).toMatchObject({
      passed: false,
      detail: `data.bin has SHA-256 ${file.sha256}, not the one expected`,
    });
    expect(await runOne({ type: 'sha256', file: 'other.bin', digest }, [file])).toMatchObject({
      passed: false,
      detail: 'no deliverable named other.bin',
    });
    // Which of two same-named files is "the deliverable" is the agent's to choose: neither is.
    const twin = delivered('data.bin', 'other bytes', 'application/octet-stream');
    expect(await runOne({ type: 'sha256', file: 'data.bin', digest: file.sha256 }, [file, twin])).toMatchObject({
      passed: false,
      detail: '2 deliverables are named data.bin: the check reads exactly one',
    });
  });
});

describe('jsonSchema checks', () => {
  const schema = {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        items: { type: 'object', required: ['price'], properties: { price: { type: 'number' } } },
      },
      at: { type: 'string', format: 'date-time' },
    },
  };
  const check: CriterionCheck = { type: 'jsonSchema', file: 'result.json', schema };

  test('behavior: a document that matches passes', async () => {
    const file = delivered('result.json', JSON.stringify({ items: [{ price: 3 }], at: '2026-12-01T10:00:00Z' }));
    expect(await runOne(check, [file])).toMatchObject({ passed: true, detail: 'result.json matches the schema' });
  });

  test('error: the first mismatch is the detail, at its instance path', async () => {
    const wrongType = delivered('result.json', JSON.stringify({ items: [{ price: '3' }] }));
    expect(await runOne(check, [wrongType])).toMatchObject({
      passed: false,
      detail: 'result.json: /items/0/price must be number',
    });
    // Formats are checked (ajv-formats), not ignored.
    const badDate = delivered('result.json', JSON.stringify({ items: [], at: 'yesterday' }));
    expect(await runOne(check, [badDate])).toMatchObject({
      passed: false,
      detail: 'result.json: /at must match format "date-time"',
    });
    expect(await runOne(check, [delivered('result.json', '[]')])).toMatchObject({
      passed: false,
      detail: 'result.json: (the document) must be object',
    });
  });

  test('error: what every object inherits does not meet `required`', async () => {
    const inherited: CriterionCheck = { type: 'jsonSchema', file: 'r.json', schema: { required: ['constructor'] } };
    expect(await runOne(inherited, [delivered('r.json', '{}')])).toMatchObject({
      passed: false,
      detail: "r.json: (the document) must have required property 'constructor'",
    });
  });

  test('error: no such deliverable, not JSON, or too big to read fails with why', async () => {
    expect(await runOne(check, [delivered('other.json', '{}')])).toMatchObject({
      passed: false,
      detail: 'no deliverable named result.json',
    });
    const notJson = await runOne(check, [delivered('result.json', '{"items": [')]);
    expect(notJson.passed).toBe(false);
    expect(notJson.detail).toMatch(/^result\.json is not JSON: /);
    const big = delivered('result.json', Buffer.alloc(MAX_JSON_BYTES + 1, 0x20));
    expect(await runOne(check, [big])).toMatchObject({
      passed: false,
      detail: `result.json is ${MAX_JSON_BYTES + 1} bytes, over the ${MAX_JSON_BYTES} a schema check reads`,
    });
    expect(big.reads).toBe(0);
  });

  test('behavior: a repeated submit does not compile the same schema again', async () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      const fresh: CriterionCheck = { type: 'jsonSchema', file: 'n.json', schema: { type: 'integer', minimum: 7 } };
      const file = delivered('n.json', '8');
      expect(await runOne(fresh, [file])).toMatchObject({ passed: true });
      expect(await runOne(fresh, [file])).toMatchObject({ passed: true });
      expect(await runOne(fresh, [delivered('n.json', '6')])).toMatchObject({
        passed: false,
        detail: 'n.json: (the document) must be >= 7',
      });
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });

  test(
    'error: a catastrophically backtracking pattern stops at the 2 s budget and fails; the budget is the ' +
      "submission's, so a second such check is not run at all",
    async () => {
      const evil = `${'a'.repeat(40)}!`;
      const pattern: CriterionCheck = { type: 'jsonSchema', file: 'p.json', schema: { pattern: '^(a+)+$' } };
      const keys: CriterionCheck = {
        type: 'jsonSchema',
        file: 'k.json',
        schema: { patternProperties: { '^(a+)+$': true } },
      };
      expect(await checkProblems(config(), [pattern, keys])).toEqual([]);
      const started = performance.now();
      const results = await runChecks(
        config(),
        [pattern, keys],
        [delivered('p.json', JSON.stringify(evil)), delivered('k.json', JSON.stringify({ [evil]: 1 }))],
        NOW,
      );
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(results.map(({ passed, detail }) => ({ passed, detail }))).toEqual([
        { passed: false, detail: 'p.json: checking took longer than 2 s' },
        { passed: false, detail: "k.json: checking took longer than 2 s (the submission's schema checks together)" },
      ]);
      // Alone, the property-name pattern is stopped the same way.
      const alone = await runOne(keys, [delivered('k.json', JSON.stringify({ [evil]: 1 }))]);
      expect(alone).toMatchObject({ passed: false, detail: 'k.json: checking took longer than 2 s' });
    },
  );
});

describe('checkProblems for schemas', () => {
  const at = (schema: Record<string, unknown> | boolean): CriterionCheck => ({
    type: 'jsonSchema',
    file: 'r.json',
    schema,
  });

  test('behavior: sound checks have no problems', async () => {
    const checks: (CriterionCheck | null)[] = [
      null,
      at({ $defs: { n: { type: 'number' } }, type: 'array', items: { $ref: '#/$defs/n' } }),
      at(true),
      { type: 'file', name: 'a.txt' },
      { type: 'sha256', file: 'a.txt', digest: 'a'.repeat(64) },
    ];
    expect(await checkProblems(config(), checks)).toEqual([]);
  });

  test('error: a remote $ref or $dynamicRef, anywhere in the schema, is refused under its field', async () => {
    const nested = at({ type: 'object', properties: { a: { $ref: 'https://schemas.example/evil.json' } } });
    expect(await checkProblems(config(), [null, nested], 'bounty.criteria')).toEqual([
      'bounty.criteria.1.check.schema: $ref "https://schemas.example/evil.json" is not a local reference (only "#…")',
    ]);
    expect(await checkProblems(config(), [at({ allOf: [{ $dynamicRef: 'other.json#meta' }] })])).toEqual([
      'criteria.0.check.schema: $dynamicRef "other.json#meta" is not a local reference (only "#…")',
    ]);
  });

  test('error: a schema over 16 KB is refused', async () => {
    const big = at({ description: 'x'.repeat(16 * 1024) });
    const [problem, ...rest] = await checkProblems(config(), [big]);
    expect(problem).toMatch(/^criteria\.0\.check\.schema: must be at most 16 KB \(its compact JSON is \d+ bytes\)$/);
    expect(rest).toEqual([]);
  });

  test("error: a schema ajv cannot compile is refused with ajv's message: a typo'd keyword or format", async () => {
    expect(await checkProblems(config(), [at({ type: 'object', requried: ['a'] })])).toEqual([
      'criteria.0.check.schema: does not compile: strict mode: unknown keyword: "requried"',
    ]);
    const [wrongType] = await checkProblems(config(), [at({ type: 'strnig' })]);
    expect(wrongType).toMatch(/^criteria\.0\.check\.schema: does not compile: schema is invalid: /);
    expect(await checkProblems(config(), [at({ type: 'string', format: 'date-tme' })])).toEqual([
      'criteria.0.check.schema: does not compile: unknown format "date-tme" ignored in schema at path "#"',
    ]);
    expect(await checkProblems(config(), [at({ $ref: '#/$defs/missing' })])).toEqual([
      expect.stringMatching(
        /^criteria\.0\.check\.schema: does not compile: can't resolve reference #\/\$defs\/missing/,
      ),
    ]);
  });
});

describe('httpGet checks', () => {
  let path = 0;
  /** A fresh path on the test server answering `status`, `headers` and `body`. */
  function serve(status: number, headers: Record<string, string> = {}, body = '{}') {
    const where = `/checks/${(path += 1)}`;
    server.serve(where, { status, headers, body });
    return `${server.origin}${where}`;
  }

  /** A loopback port nobody listens on. */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  test('behavior: an answer with the status and media type passes (parameters and case ignored)', async () => {
    const url = serve(200, { 'content-type': 'Application/JSON; charset=utf-8' });
    expect(await checkProblems(config(), [{ type: 'httpGet', url, contentType: 'application/json' }])).toEqual([]);
    expect(await runOne({ type: 'httpGet', url, contentType: 'application/json' })).toMatchObject({
      passed: true,
      detail: 'answered 200 (application/json)',
    });
    expect(await runOne({ type: 'httpGet', url: serve(204, {}, ''), status: 204 })).toMatchObject({ passed: true });
  });

  test('error: another status or media type fails, saying what it answered', async () => {
    expect(await runOne({ type: 'httpGet', url: serve(404) })).toMatchObject({
      passed: false,
      detail: 'answered 404, not 200',
    });
    const html = serve(200, { 'content-type': 'text/html; charset=utf-8' }, '<p>hi</p>');
    expect(await runOne({ type: 'httpGet', url: html, contentType: 'application/json' })).toMatchObject({
      passed: false,
      detail: 'answered 200 as text/html, not application/json',
    });
  });

  test('error: a redirect fails at submit, naming its Location, and is refused at creation', async () => {
    const url = serve(302, { location: 'https://elsewhere.example/final' }, '');
    expect(await runOne({ type: 'httpGet', url })).toMatchObject({
      passed: false,
      detail: 'answered 302, redirecting to https://elsewhere.example/final; redirects are not followed',
    });
    expect(await checkProblems(config(), [null, { type: 'httpGet', url }])).toEqual([
      'criteria.1.check.url: redirects to https://elsewhere.example/final: give the final address',
    ]);
  });

  test('behavior: an address not answering yet is no problem at creation; at submit it fails', async () => {
    const url = `https://127.0.0.1:${await closedPort()}/later`;
    expect(await checkProblems(config(), [{ type: 'httpGet', url }])).toEqual([]);
    const result = await runOne({ type: 'httpGet', url });
    expect(result.passed).toBe(false);
    expect(result.detail).toMatch(/^could not fetch it: .*ECONNREFUSED/);
  });

  test('error: not a URL, not https, or a status that can never be final is refused at creation', async () => {
    expect(
      await checkProblems(config(), [
        { type: 'httpGet', url: 'not a url' },
        { type: 'httpGet', url: 'http://example.com/x' },
        { type: 'httpGet', url: 'https://example.com/x', status: 301 },
      ]),
    ).toEqual([
      'criteria.0.check.url: not a URL',
      'criteria.1.check.url: must be https',
      'criteria.2.check.status: 301 can never be the answer checked (redirects are not followed)',
    ]);
  });

  test(
    'error: without WEBHOOK_ALLOW_PRIVATE a loopback or private address is refused at creation and never ' + 'fetched',
    async () => {
      const url = serve(200);
      const hits = server.hits(new URL(url).pathname);
      setEnv({ WEBHOOK_ALLOW_PRIVATE: undefined });
      try {
        expect(
          await checkProblems(config(), [
            { type: 'httpGet', url: 'https://127.0.0.1/x' },
            { type: 'httpGet', url: 'https://10.0.0.1/x' },
            { type: 'httpGet', url: 'https://localhost/x' },
            { type: 'httpGet', url },
          ]),
        ).toEqual(
          [0, 1, 2, 3].map(
            (i) => `criteria.${i}.check.url: must not point at a loopback, private or link-local address`,
          ),
        );
        // At submit the guard refuses it again (a check stored before the rule).
        expect(await runOne({ type: 'httpGet', url })).toMatchObject({
          passed: false,
          detail: 'could not fetch it: must not point at a loopback, private or link-local address',
        });
        expect(server.hits(new URL(url).pathname)).toBe(hits);
      } finally {
        setEnv({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_TEST_CA: server.ca });
      }
    },
  );
});
