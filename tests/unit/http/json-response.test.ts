// JsonResponse (lib/http/json-response.ts): its text is the text it was made from, read once, and
// over HTTP its body streams as any Response's.
import { describe, expect, test } from 'vitest';
import { JsonResponse } from '@/lib/http/json-response';

const PAGE = JSON.stringify({ items: [{ id: 'a', title: 'Traduire « une page » — 日本語 \u2028' }], nextCursor: null });
const init = { status: 201, headers: { 'Content-Type': 'application/json' } };

describe('JsonResponse', () => {
  test('default: text() answers the text it was made from; status and headers are a Response’s', async () => {
    const response = new JsonResponse(PAGE, init);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(PAGE);
  });

  test('behavior: the body streams the same bytes as a plain Response, for HTTP', async () => {
    const streamed = await new Response(new JsonResponse(PAGE, init).body).arrayBuffer();
    expect(Buffer.from(streamed).equals(Buffer.from(await new Response(PAGE).arrayBuffer()))).toBe(true);
    expect(await new JsonResponse(PAGE, init).json()).toEqual(JSON.parse(PAGE));
  });

  test(
    'error: a body is read once: a second text(), any read after text(), or text() after ' +
      'the stream was read, is refused',
    async () => {
      const twice = new JsonResponse(PAGE, init);
      await twice.text();
      expect(twice.bodyUsed).toBe(true);
      await expect(twice.text()).rejects.toThrow(TypeError);
      await expect(twice.json()).rejects.toThrow(TypeError);
      await expect(twice.arrayBuffer()).rejects.toThrow(TypeError);
      const streamed = new JsonResponse(PAGE, init);
      await new Response(streamed.body).text();
      await expect(streamed.text()).rejects.toThrow(TypeError);
    },
  );
});
