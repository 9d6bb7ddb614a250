// An OTLP/HTTP endpoint for the tracing benchmark, in a process of its own so that receiving the
// spans takes nothing from the load generator: accepts every export (200, an empty
// ExportTraceServiceResponse) without decoding it, and counts what arrived (GET /received), so the
// report can show that spans were being exported while the traced instance was measured.
import { type ChildProcess, spawn } from 'node:child_process';

export interface OtlpSink {
  url: string;
  received(): Promise<{ requests: number; bytes: number }>;
  close(): Promise<void>;
}

const SINK = `
const server = require('node:http').createServer((request, response) => {
  if (request.method === 'GET') return response.end(JSON.stringify({ requests, bytes }));
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
let requests = 0;
let bytes = 0;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

export async function startOtlpSink(): Promise<OtlpSink> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`OTLP sink exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received: async () => (await (await fetch(`${url}/received`)).json()) as { requests: number; bytes: number },
    close: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
