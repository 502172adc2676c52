import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface SeenRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void;

/** A loopback HTTP server whose answers each test scripts; it records every request it saw. */
export interface LocalServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<LocalServer> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const params = new URLSearchParams(url.search);
      if (req.method === 'POST') {
        for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params.append(k, v);
      }
      const r: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, params, headers: req.headers };
      seen.push(r);
      handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A loopback port that nothing listens on: bind, read the port, close. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function vector(results: { metric: Record<string, string>; value: [number, string] }[], extra: Record<string, unknown> = {}) {
  return { status: 'success', data: { resultType: 'vector', result: results }, ...extra };
}
